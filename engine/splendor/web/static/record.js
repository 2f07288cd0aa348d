// Classic Splendor on the logging page (web/static/record.js, which loads after this):
// the hooks of the game's widgets.  A piece tapped that is not lit is checked by the rules
// as the move it would make: ``attempted`` writes that move from the targets tapped (the
// bank's colour letters, card ids, decks, a noble), null if they make none.
(function () {
  "use strict";
  var tablelog = window.tablelog = window.tablelog || {};
  tablelog.widgets = tablelog.widgets || {};

  function attempted(list) {
    var letters = list.filter(function (t) { return /^[A-Z]$/.test(t); });
    var cards = list.filter(function (t) { return /^\d-\d+$/.test(t); });
    var decks = list.filter(function (t) { return /^deck-\d$/.test(t); });
    var nobles = list.filter(function (t) { return /^N-\d+$/.test(t); });
    if (nobles.length === 1 && list.length === 1) return "noble " + nobles[0];
    if (cards.length + decks.length === 1) {
      var what = cards.length ? cards[0] : "L" + decks[0].slice(5);
      if (letters.indexOf("Y") >= 0) return "res " + what + " +Y";
      return (decks.length ? "res " : "buy ") + what;
    }
    if (letters.length && letters.length === list.length) return "take " + letters.join("");
    return null;
  }

  tablelog.widgets.splendor = { attempted: attempted };
})();
