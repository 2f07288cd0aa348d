// tablelog follow: the replay page of a game in progress follows it live, from the game's
// stream of server-sent events (GET /api/games/<id>/stream, named by the page's
// data-stream).  A viewer on the latest step sees each new step's page replace the
// content in place (no reload; the address follows); a viewer on an earlier step stays
// there and is told the game moved on, with a link to the latest step.  Without this
// script the page is brought up to date by reloading it.
(function () {
  "use strict";

  var source = null;
  var wanted = 0; // the latest step the stream announced
  var busy = false; // a step page is being fetched
  var following = false; // the viewer was on the latest step: keep showing the latest

  function replay() {
    return document.getElementById("replay");
  }

  function number(root, name) {
    return parseInt(root.getAttribute(name), 10);
  }

  function stepUrl(root, step) {
    return root.getAttribute("data-base") + String(step);
  }

  function stop() {
    if (source) {
      source.close();
      source = null;
    }
  }

  // The notice on an earlier step: the game moved on, and where it stands now.
  function notice(root) {
    var box = document.getElementById("live-notice");
    if (!box) {
      box = document.createElement("p");
      box.id = "live-notice";
      box.className = "live-notice";
      box.setAttribute("role", "status");
      var before = root.querySelector(".status");
      root.insertBefore(box, before && before.parentNode === root ? before : root.firstChild);
    }
    box.textContent = "The game moved on: it is at step " + wanted + ". ";
    var link = document.createElement("a");
    link.className = "btn";
    link.href = stepUrl(root, wanted);
    link.textContent = "Go to the latest step";
    box.appendChild(link);
  }

  // Put the content of the step page ``html`` (its #replay) in place of this one's.
  function swap(html, url) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("replay");
    var old = replay();
    if (!fresh || !old) {
      return false;
    }
    var active = document.activeElement;
    var focusId = active && old.contains(active) ? active.id : "";
    var input = document.getElementById("move-input");
    var typed = input ? input.value : "";
    var y = window.scrollY;
    old.replaceWith(document.adoptNode(fresh));
    if (doc.title) {
      document.title = doc.title;
    }
    history.replaceState(history.state, "", url);
    var field = document.getElementById("move-input");
    if (field && typed && !field.value) {
      field.value = typed;
    }
    var focused = focusId ? document.getElementById(focusId) : null;
    if (focused) {
      focused.focus({ preventScroll: true });
    }
    window.scrollTo(0, y);
    document.dispatchEvent(new CustomEvent("tablelog:replaced"));
    return true;
  }

  // On the latest step: fetch the latest step announced and show it, once at a time.
  function catchUp() {
    var root = replay();
    if (busy || !root || wanted <= number(root, "data-step")) {
      return;
    }
    busy = true;
    var url = stepUrl(root, wanted);
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        busy = false;
        if (!swap(html, url)) {
          window.location.assign(url);
          return;
        }
        var root = replay();
        // the page may know of later steps than the stream has told yet
        wanted = Math.max(wanted, number(root, "data-last"));
        if (!root.getAttribute("data-stream") && wanted <= number(root, "data-step")) {
          stop(); // the game is over
        }
        catchUp();
      })
      .catch(function () {
        busy = false;
        window.setTimeout(catchUp, 2000);
      });
  }

  function onStep(event) {
    var root = replay();
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    if (!root || typeof data.step !== "number" || data.step <= wanted) {
      return;
    }
    wanted = data.step;
    if (following) {
      catchUp();
    } else {
      notice(root);
    }
  }

  function start() {
    var root = replay();
    var stream = root && root.getAttribute("data-stream");
    if (!stream || source || typeof window.EventSource !== "function") {
      return;
    }
    wanted = Math.max(wanted, number(root, "data-last"));
    following = number(root, "data-step") === number(root, "data-last");
    source = new EventSource(stream + "?after=" + String(wanted));
    source.addEventListener("step", onStep);
    source.addEventListener("end", stop);
    // the record was changed behind the store's back: the page says where
    source.addEventListener("altered", function () {
      stop();
      window.location.reload();
    });
  }

  window.addEventListener("pagehide", stop);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      start();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
