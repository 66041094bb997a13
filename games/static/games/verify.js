// The fair deal's check, in the browser (docs/fair-deal.md): the commitment and the
// seed recomputed with WebCrypto, the packs shuffled by this file's own implementation
// of the documented shuffle, laid out and compared with the deal the replay shows.
// Nothing here asks the server: it reads only the values printed on the page.
"use strict";
(function () {
  var RANKS = "A23456789TJQK", SUITS = "SHDC";
  var TWO64 = BigInt(1) << BigInt(64);
  var encoder = new TextEncoder();

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  function sha256(bytes) {
    return crypto.subtle.digest("SHA-256", bytes);
  }

  function sha256Text(text) {
    return sha256(encoder.encode(text)).then(hex);
  }

  function commitment(secret) {
    return sha256Text("rbank-commit/2:" + secret);
  }

  function oldCommitment(seed) {
    return sha256Text("rbank-deal/1:" + seed);
  }

  function deriveSeed(secret, values) {
    var text = "rbank-seed/2:" + secret + "\n";
    values.forEach(function (value, i) { text += "ABC"[i] + ":" + value + "\n"; });
    return sha256Text(text);
  }

  // SHA-256 in counter mode over "rbank-deal/1:" + seed: block n hashes the key and n
  // as eight bytes, big-endian; the blocks are read as one stream of bytes.
  function Stream(seed) {
    this.key = encoder.encode("rbank-deal/1:" + seed);
    this.counter = 0;
    this.buffer = new Uint8Array(0);
  }

  Stream.prototype.take = async function (n) {
    while (this.buffer.length < n) {
      var message = new Uint8Array(this.key.length + 8);
      message.set(this.key);
      new DataView(message.buffer).setBigUint64(this.key.length, BigInt(this.counter));
      var block = new Uint8Array(await sha256(message));
      var joined = new Uint8Array(this.buffer.length + block.length);
      joined.set(this.buffer);
      joined.set(block, this.buffer.length);
      this.buffer = joined;
      this.counter += 1;
    }
    var out = this.buffer.slice(0, n);
    this.buffer = this.buffer.slice(n);
    return out;
  };

  // A uniform integer below n: 64-bit values, those at or over the largest multiple
  // of n under 2^64 drawn again (no modulo bias).
  Stream.prototype.below = async function (n) {
    var big = BigInt(n), limit = TWO64 - TWO64 % big;
    for (;;) {
      var bytes = await this.take(8);
      var value = new DataView(bytes.buffer).getBigUint64(0);
      if (value < limit) return Number(value % big);
    }
  };

  // Fisher-Yates, from the last card down.
  Stream.prototype.shuffle = async function (cards) {
    for (var i = cards.length - 1; i > 0; i--) {
      var j = await this.below(i + 1);
      var kept = cards[i]; cards[i] = cards[j]; cards[j] = kept;
    }
  };

  function fullPack() {
    var pack = [];
    for (var s = 0; s < 4; s++) for (var r = 0; r < 13; r++) pack.push(RANKS[r] + SUITS[s]);
    return pack;
  }

  // Each seat's cards: its own pack when there is one a seat; else every pack shuffled
  // together once, shared by suits or in equal shares. (Jokers are not covered.)
  async function seatCards(seed, rules) {
    var stream = new Stream(seed), out = [], s;
    if (rules.packs === rules.seats) {
      for (s = 0; s < rules.seats; s++) {
        var pack = fullPack();
        await stream.shuffle(pack);
        out.push(pack);
      }
      return out;
    }
    var pool = [];
    for (var p = 0; p < rules.packs; p++) pool = pool.concat(fullPack());
    await stream.shuffle(pool);
    if (rules.seat_suits.length) {
      return rules.seat_suits.map(function (suits) {
        return pool.filter(function (card) { return suits.indexOf(card[1]) >= 0; });
      });
    }
    var share = Math.floor(pool.length / rules.seats);
    for (s = 0; s < rules.seats; s++) out.push(pool.slice(s * share, (s + 1) * share));
    return out;
  }

  // A seat's cards laid out: its reserve, the face-down rows, a card a house, the hand.
  function layOut(packs, rules) {
    var size = rules.reserve_size, hps = rules.houses_per_seat, down = rules.rows * hps;
    return packs.map(function (pack) {
      return {
        reserve: pack.slice(0, size),
        houses: pack.slice(size + down, size + down + hps),
        hand: pack.slice(size + down + hps)
      };
    });
  }

  function difference(expected, shown) {
    for (var s = 0; s < expected.length; s++) {
      var letter = "ABC"[s];
      var parts = ["reserve", "houses", "hand"];
      for (var k = 0; k < parts.length; k++) {
        if (expected[s][parts[k]].join(" ") !== shown[s][parts[k]].join(" ")) {
          return letter + " " + parts[k];
        }
      }
    }
    return "";
  }

  window.rbankVerify = {
    commitment: commitment, deriveSeed: deriveSeed, seatCards: seatCards, layOut: layOut
  };

  async function check() {
    var data = JSON.parse(document.getElementById("verify-data").textContent);
    var words = JSON.parse(document.getElementById("verify-words").textContent);
    function say(id, text, good) {
      var item = document.getElementById(id);
      item.textContent = text;
      item.dataset.ok = good ? "true" : "false";
    }
    if (!(window.crypto && crypto.subtle)) {
      say("check-commitment", words.no_crypto, false);
      return;
    }
    var seed = data.seed;
    if (data.scheme === 2) {
      var made = await commitment(data.server_secret);
      say("check-commitment", made === data.commitment ? words.commitment_ok : words.commitment_bad, made === data.commitment);
      var derived = await deriveSeed(data.server_secret, data.values);
      say("check-seed", derived === data.seed ? words.seed_ok : words.seed_bad, derived === data.seed);
      seed = derived;
    } else {
      var old = await oldCommitment(seed);
      say("check-commitment", old === data.commitment ? words.commitment_ok : words.commitment_bad, old === data.commitment);
    }
    if (data.rules.jokers) {
      say("check-deal", words.deal_skipped, true);
      return;
    }
    var dealt = layOut(await seatCards(seed, data.rules), data.rules);
    var wrong = difference(dealt, data.deal);
    say("check-deal", wrong ? words.deal_bad.replace("%s", wrong) : words.deal_ok, !wrong);
  }

  if (document.getElementById("verify-data")) {
    check().finally(function () {
      document.getElementById("verify-results").dataset.done = "true";
    });
  }
})();
