// Splendor Duel on the logging page (web/static/record.js, which loads after this): the
// hooks of the game's widgets.  A piece tapped that is not lit is checked by the rules as
// the move it would make: ``attempted`` writes that move from the targets tapped (board
// spaces, colour letters, card ids, decks, a Royal card, the Privilege), null if they
// make none; ``payment`` reads the tokens a purchase pays, to draw its other payments.
(function () {
  "use strict";
  var tablelog = window.tablelog = window.tablelog || {};
  tablelog.widgets = tablelog.widgets || {};

  function attempted(list, choices) {
    var spaces = list.filter(function (t) { return /^[a-e][1-5]$/.test(t); });
    var letters = list.filter(function (t) { return /^[A-Z]$/.test(t); });
    var cards = list.filter(function (t) { return /^\d-\d+$/.test(t); });
    var decks = list.filter(function (t) { return /^deck-\d$/.test(t); });
    var royals = list.filter(function (t) { return /^R-\d+$/.test(t); });
    // the Golds a reserve may take (the last target of a reserve)
    var golds = {};
    choices.forEach(function (c) { if (c.group === "reserve" && c.targets.length > 1) golds[c.targets[c.targets.length - 1]] = 1; });
    if (royals.length === 1 && list.length === 1) return "royal " + royals[0];
    if (list.indexOf("priv") >= 0 && spaces.length) return "priv " + spaces.join(" ");
    if (cards.length + decks.length === 1) {
      var what = cards.length ? cards[0] : "L" + decks[0].slice(5);
      var gold = spaces.filter(function (t) { return golds[t]; })[0];
      if (gold) return "res " + what + " @" + gold;
      return (decks.length ? "res " : "buy ") + what;
    }
    if (spaces.length && spaces.length === list.length) return "take " + spaces.join(" ");
    if (letters.length && letters.length === list.length) return "take " + letters.join("");
    return null;
  }

  // A purchase's payment, as its text writes it (``buy 1-03 (B1 G2 Y1)``): each colour
  // letter with its count.
  function payment(text) {
    var m = /\(([^)]*)\)\s*$/.exec(text);
    var parts = m ? m[1].split(/\s+/).filter(Boolean) : [];
    return parts.map(function (p) { return [p.charAt(0), p.slice(1)]; });
  }

  tablelog.widgets["splendor-duel"] = { attempted: attempted, payment: payment };
})();
