/* tablelog: opening a recorder link (/games/<id>/record#key=<key>) on the recording page.
 *
 * The key travels in the link's fragment, which a browser never sends to a server: this
 * script reads it, posts it to POST /games/<id>/unlock (form field "key", the CSRF token
 * from <meta name="csrf-token"> in the X-CSRFToken header), takes the fragment out of
 * the address bar and the history (history.replaceState) whatever the answer, and
 * reloads the page when the key was right; a wrong key is said on the page and
 * authorises nothing.  The unlock page (/games/<id>/unlock#key=...) does the same and
 * then goes to the recording page; without JavaScript it has a form for the key. */
(function () {
  "use strict";

  var match = /(?:^#|&)key=([^&]+)/.exec(window.location.hash);
  var game = /\/games\/([^/]+)\/(record|unlock)\/?$/.exec(window.location.pathname);
  if (!match || !game) return;
  var key = decodeURIComponent(match[1]);
  var clean = window.location.pathname + window.location.search;
  window.history.replaceState(null, "", clean);

  var meta = document.querySelector('meta[name="csrf-token"]');
  var body = new URLSearchParams();
  body.set("key", key);
  var url = window.location.pathname.replace(/\/(record|unlock)\/?$/, "/unlock");
  var record = window.location.pathname.replace(/\/(record|unlock)\/?$/, "/record");

  function say(text) {
    var p = document.createElement("p");
    p.className = "unlock-error field-error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    var main = document.querySelector("main") || document.body;
    main.insertBefore(p, main.firstChild);
  }

  fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Accept": "application/json",
      "X-CSRFToken": meta ? meta.getAttribute("content") : ""
    },
    body: body
  }).then(function (r) {
    if (r.ok) {
      if (game[2] === "record") window.location.reload();
      else window.location.replace(record);
      return null;
    }
    return r.json().then(function (b) {
      var text = (b && b.error && b.error.message) || "the server refused it (" + r.status + ")";
      say("Recorder link refused: " + text + ".");
    }, function () {
      say("Recorder link refused (the server answered " + r.status + ").");
    });
  }).catch(function () {
    say("The recorder link could not be checked: the server did not answer. Open the link again.");
  });
})();
