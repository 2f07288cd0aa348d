// tablelog replay: keyboard (← → Home End, Shift+← Shift+→ by turn) and the step slider.  Every step is its own
// page, so links, the back and forward buttons and reading without JavaScript all work;
// this script only adds shortcuts and keeps the scroll position while stepping.
(function () {
  "use strict";

  var SCROLL_KEY = "tablelog.scroll";

  function replay() {
    return document.getElementById("replay");
  }

  function stepUrl(root, step) {
    return root.getAttribute("data-base") + String(step);
  }

  function remember(root) {
    try {
      sessionStorage.setItem(SCROLL_KEY, JSON.stringify({
        game: root.getAttribute("data-game"),
        y: window.scrollY,
      }));
    } catch (e) { /* storage may be disabled: stepping still works */ }
  }

  function restore(root) {
    var saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(SCROLL_KEY) || "null");
      sessionStorage.removeItem(SCROLL_KEY);
    } catch (e) { saved = null; }
    if (saved && saved.game === root.getAttribute("data-game") && typeof saved.y === "number") {
      window.scrollTo(0, saved.y);
    }
  }

  function go(root, step) {
    var last = parseInt(root.getAttribute("data-last"), 10);
    var current = parseInt(root.getAttribute("data-step"), 10);
    step = Math.max(0, Math.min(last, step));
    if (step === current) {
      return;
    }
    remember(root);
    window.location.assign(stepUrl(root, step));
  }

  function typing(target) {
    if (!target || !target.tagName) {
      return false;
    }
    var tag = target.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
  }

  function centreCurrentMove() {
    var list = document.getElementById("moves");
    var current = list && list.querySelector("li.current");
    if (!list || !current) {
      return;
    }
    var top = current.offsetTop - list.clientHeight / 2 + current.offsetHeight / 2;
    list.scrollTop = Math.max(0, top);
  }

  // What belongs to one step's content: bound again when a live update (follow.js)
  // replaces that content in place.
  function bind(root) {
    centreCurrentMove();
    var slider = document.getElementById("step-slider");
    var label = root.querySelector(".stepno");
    if (slider) {
      slider.addEventListener("input", function () {
        if (label) { label.textContent = slider.value; }
      });
      slider.addEventListener("change", function () {
        go(root, parseInt(slider.value, 10));
      });
    }

    var links = root.querySelectorAll("a[data-nav], #moves a");
    for (var i = 0; i < links.length; i++) {
      links[i].addEventListener("click", function () { remember(root); });
    }
  }

  function init() {
    var root = replay();
    if (!root) {
      return;
    }
    restore(root);
    bind(root);

    document.addEventListener("keydown", function (event) {
      var current = replay();
      if (!current || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) {
        return;
      }
      if (event.shiftKey) {
        // by turn: where the page's "previous turn" and "next turn" links lead
        var rel = event.key === "ArrowRight" ? "next-turn" : event.key === "ArrowLeft" ? "prev-turn" : null;
        var link = rel && current.querySelector('a[data-nav="' + rel + '"]');
        if (link) {
          event.preventDefault();
          remember(current);
          window.location.assign(link.getAttribute("href"));
        }
        return;
      }
      if (current.hasAttribute("data-line")) {
        // a what-if line's steps are addresses, not numbers (docs/review.md): its links
        // say where ← and Home lead (back along the line, back to the record)
        var back = { ArrowLeft: "prev", Home: "first" }[event.key];
        var there = back && current.querySelector('a[data-nav="' + back + '"]');
        if (there) {
          event.preventDefault();
          window.location.assign(there.getAttribute("href"));
        }
        return;
      }
      var step = parseInt(current.getAttribute("data-step"), 10);
      var last = parseInt(current.getAttribute("data-last"), 10);
      var target = null;
      if (event.key === "ArrowRight") { target = step + 1; }
      else if (event.key === "ArrowLeft") { target = step - 1; }
      // (the first step worth showing: the table as set up, not step 0's empty one)
      else if (event.key === "Home") { target = parseInt(current.getAttribute("data-first") || "0", 10); }
      else if (event.key === "End") { target = last; }
      if (target === null) {
        return;
      }
      event.preventDefault();
      go(current, target);
    });

    document.addEventListener("tablelog:replaced", function () {
      var fresh = replay();
      if (fresh) { bind(fresh); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
