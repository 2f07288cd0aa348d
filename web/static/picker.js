/* tablelog: the card picker (templates/picker.html).
 *
 * Shows a game's cards by level; typing in its search field asks the server's look-up
 * (the game's own find_cards, GET data-find-url?q=...) which cards fit and shows those:
 * the page never matches words itself, so it finds exactly what the form's text fields
 * and the command line find.  A tap on a card dispatches "picker:pick" (detail: {id,
 * level}) on the picker's element.  A page drives it through element.tablelogPicker:
 *   setTaken(ids)   hide these cards (already chosen, or no longer unseen)
 *   setLevel(level) show one level only (null or "": every level)
 *   refresh()       apply the above again
 * No inline script or style: the page includes this file (defer). */
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  var DEBOUNCE_MS = 120;

  function Picker(el) {
    this.el = el;
    this.url = el.getAttribute("data-find-url");
    this.input = el.querySelector(".picker-q");
    this.msg = el.querySelector(".picker-msg");
    this.cards = Array.prototype.slice.call(el.querySelectorAll(".pick"));
    this.groups = Array.prototype.slice.call(el.querySelectorAll(".picker-group"));
    this.levelButtons = Array.prototype.slice.call(el.querySelectorAll(".picker-level"));
    this.taken = new Set();
    this.level = "";
    this.matches = null; // null: no query; else the Set of ids the server found
    this.query = "";
    this.error = "";
    this.timer = null;
    this.seq = 0;
    var self = this;
    el.addEventListener("click", function (ev) {
      var level = ev.target.closest(".picker-level");
      if (level) {
        self.setLevel(level.getAttribute("data-level"));
        return;
      }
      var pick = ev.target.closest(".pick");
      if (!pick || pick.hidden) return;
      el.dispatchEvent(new CustomEvent("picker:pick", {
        bubbles: true,
        detail: { id: pick.getAttribute("data-card"), level: Number(pick.getAttribute("data-level")) }
      }));
    });
    if (this.input) {
      this.input.addEventListener("input", function () { self.schedule(); });
      this.input.addEventListener("keydown", function (ev) {
        if (ev.key !== "Enter") return;
        ev.preventDefault(); // never submit the surrounding form from the search field
        var shown = self.visible();
        if (shown.length === 1) shown[0].click();
      });
    }
    this.refresh();
  }

  Picker.prototype.schedule = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.search(self.input.value.trim()); }, DEBOUNCE_MS);
  };

  Picker.prototype.search = function (query) {
    var self = this;
    var seq = ++this.seq;
    if (!query) {
      this.query = "";
      this.matches = null;
      this.error = "";
      this.refresh();
      return;
    }
    fetch(this.url + "?q=" + encodeURIComponent(query), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (seq !== self.seq) return; // a later query answered already or is on its way
        self.query = query;
        if (body.error) {
          // a word not (yet) printed on any card: keep showing what the last words found
          self.error = body.error;
        } else {
          self.error = "";
          self.matches = new Set(body.ids || []);
        }
        self.refresh();
      })
      .catch(function () {
        if (seq !== self.seq) return;
        self.error = "the search did not answer; try again";
        self.refresh();
      });
  };

  Picker.prototype.setTaken = function (ids) {
    this.taken = new Set(ids || []);
    this.refresh();
  };

  Picker.prototype.setLevel = function (level) {
    this.level = level === null || level === undefined ? "" : String(level);
    this.refresh();
  };

  Picker.prototype.visible = function () {
    return this.cards.filter(function (c) { return !c.hidden; });
  };

  Picker.prototype.refresh = function () {
    var self = this;
    this.cards.forEach(function (c) {
      var id = c.getAttribute("data-card");
      var show = !self.taken.has(id) &&
        (self.matches === null || self.matches.has(id)) &&
        (self.level === "" || c.getAttribute("data-level") === self.level);
      c.hidden = !show;
    });
    this.groups.forEach(function (g) {
      g.hidden = !g.querySelector(".pick:not([hidden])");
    });
    this.levelButtons.forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-level") === self.level));
    });
    var n = this.visible().length;
    var text = "";
    if (this.error) {
      text = this.error;
    } else if (this.matches !== null && n === 0 && this.level !== "") {
      var elsewhere = this.cards.filter(function (c) {
        var id = c.getAttribute("data-card");
        return !self.taken.has(id) && self.matches.has(id);
      }).length;
      text = "no card of this level fits \u201c" + this.query + "\u201d" +
        (elsewhere ? " (" + elsewhere + " of other levels do: tap All)" : "");
    } else if (this.matches !== null) {
      text = n === 0 ? "no card left fits \u201c" + this.query + "\u201d"
        : n === 1 ? "1 card fits: tap it (or press Enter)"
        : n + " cards fit";
    }
    this.msg.textContent = text;
    this.msg.classList.toggle("is-error", Boolean(this.error) || (this.matches !== null && n === 0));
  };

  Array.prototype.forEach.call(document.querySelectorAll("[data-picker]"), function (el) {
    el.tablelogPicker = new Picker(el);
  });
})();
