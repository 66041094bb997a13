// The service worker (games/pages/app.py serves it at /sw.js, for the whole site):
// the shell kept at installation, the lobby and each table kept as last seen and shown
// when the network fails (the page then says it is offline: app.js), and push
// notifications shown, a click opening their game.
"use strict";
var VERSION = "{{ version }}";
var SHELL_CACHE = "rbank-shell-" + VERSION;
var PAGES_CACHE = "rbank-pages";
var SHELL = {{ shell|safe }};
var OFFLINE = {{ offline|safe }};
var STATIC = {{ static_prefix|safe }};
var RENEW = {{ renew|safe }};
// The pages kept as last seen: the lobby and the tables.
var KEPT = /^\/(games\/\d+\/)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE).then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("rbank-shell-") === 0 && name !== SHELL_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function page(event) {
  var request = event.request;
  var url = new URL(request.url);
  return fetch(request).then(function (response) {
    if (response.ok && KEPT.test(url.pathname) && !response.redirected) {
      var copy = response.clone();
      event.waitUntil(caches.open(PAGES_CACHE).then(function (cache) {
        return cache.put(url.pathname, copy);
      }));
    }
    return response;
  }).catch(function () {
    return caches.match(url.pathname, { cacheName: PAGES_CACHE }).then(function (kept) {
      return kept || caches.match(OFFLINE);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(caches.match(request).then(function (kept) {
      return kept || fetch(request);
    }));
  }
});

// Signing out: the pages kept were the player's own.
self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "forget") {
    event.waitUntil(caches.delete(PAGES_CACHE));
  }
});

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  event.waitUntil(self.registration.showNotification(data.title || "", {
    body: data.body || "",
    tag: data.tag,
    lang: data.lang,
    icon: data.icon,
    renotify: Boolean(data.tag),
    data: { url: data.url || "/" }
  }));
});

// A click opens the game: in a window of the site already open, else a new one.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === target && "focus" in windows[i]) return windows[i].focus();
      }
      if (windows.length && "navigate" in windows[0]) {
        return windows[0].navigate(target).then(function (client) {
          return client ? client.focus() : self.clients.openWindow(target);
        });
      }
      return self.clients.openWindow(target);
    }));
});

// The browser replaced the subscription: the account keeps the new one (the old
// endpoint says which device it was).
self.addEventListener("pushsubscriptionchange", function (event) {
  var old = event.oldSubscription;
  if (!old) return;
  var fresh = event.newSubscription ? Promise.resolve(event.newSubscription)
    : self.registration.pushManager.subscribe(old.options);
  event.waitUntil(fresh.then(function (subscription) {
    return fetch(RENEW, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ old: old.endpoint, subscription: subscription.toJSON() })
    });
  }).catch(function () {}));
});
