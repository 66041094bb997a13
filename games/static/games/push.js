// The account page's push notifications: ask the browser's permission, subscribe it
// with the server's VAPID key, and store its subscription on the account (POST, with
// the page's CSRF token). A browser already subscribed stores it again at each visit,
// so that the account keeps the subscription the browser has now.
(function () {
  "use strict";
  var section = document.getElementById("push-section");
  if (!section || !section.dataset.key) return;
  var button = document.getElementById("push-on");
  var status = document.getElementById("push-status");

  function say(key, detail) {
    status.textContent = status.dataset[key] + (detail ? " " + detail : "");
  }

  function token() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function keyBytes(text) {
    var base64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  // Whether a subscription was made with the server's key (a new key needs a new one).
  function ours(subscription) {
    var made = subscription.options && subscription.options.applicationServerKey;
    if (!made) return true;
    var have = new Uint8Array(made);
    var want = keyBytes(section.dataset.key);
    if (have.length !== want.length) return false;
    for (var i = 0; i < want.length; i++) if (have[i] !== want[i]) return false;
    return true;
  }

  // Store a subscription (the Push API's PushSubscription, or its JSON) on the account.
  function store(subscription) {
    var body = typeof subscription.toJSON === "function" ? subscription.toJSON() : subscription;
    return fetch(section.dataset.store, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token() },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      say("stored");
      return response.json();
    });
  }

  function subscribe() {
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say("denied"); return null; }
      return navigator.serviceWorker.register(document.documentElement.dataset.worker)
        .then(function () { return navigator.serviceWorker.ready; })
        .then(function (registration) {
          return registration.pushManager.getSubscription().then(function (old) {
            return old && !ours(old) ? old.unsubscribe().then(function () { return registration; })
              : registration;
          });
        })
        .then(function (registration) {
          // A browser that cannot reach its push service may never answer: give up
          // after a minute, and say so.
          return Promise.race([
            registration.pushManager.subscribe({
              userVisibleOnly: true,
              applicationServerKey: keyBytes(section.dataset.key)
            }),
            new Promise(function (_, fail) {
              setTimeout(function () { fail(new Error("no answer from the push service")); }, 60000);
            })
          ]);
        })
        .then(store);
    }).catch(function (error) { say("failed", error && error.message); });
  }

  window.rbankPush = { store: store, subscribe: subscribe };

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  button.hidden = false;
  button.addEventListener("click", subscribe);
  if (Notification.permission === "granted") {
    navigator.serviceWorker.getRegistration().then(function (registration) {
      return registration && registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (subscription && ours(subscription)) return store(subscription);
    }).catch(function () {});
  }
})();
