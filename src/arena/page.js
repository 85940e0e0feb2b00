// The arena's page: every game replayable move by move. The data is the JSON report
// (plus each game's boards); everything from it reaches the page as text
// (textContent), never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("arena-data").textContent);
  var games = data.games;
  var current = 0;
  var ply = 0;

  function text(element, value) {
    element.textContent = value;
    return element;
  }

  function make(tag, value) {
    return text(document.createElement(tag), value === undefined ? "" : value);
  }

  var board = document.getElementById("board");
  var cells = [];
  var header = document.createElement("tr");
  header.appendChild(make("th"));
  "abcdefgh".split("").forEach(function (c) { header.appendChild(make("th", c)); });
  board.appendChild(header);
  for (var row = 0; row < 8; row++) {
    var tr = document.createElement("tr");
    tr.appendChild(make("th", String(row + 1)));
    for (var col = 0; col < 8; col++) {
      var td = document.createElement("td");
      td.id = "cell-" + "abcdefgh"[col] + (row + 1);
      tr.appendChild(td);
      cells.push(td);
    }
    board.appendChild(tr);
  }

  var list = document.getElementById("game-list");
  games.forEach(function (game, k) {
    var item = make("li", "game " + (k + 1) + ": " + game.white + " (White) vs " + game.black +
      " (Black): " + game.winner + " " + game.discs.white + "-" + game.discs.black +
      (game.forfeit ? " (forfeit: " + game.forfeit.player + ")" : ""));
    item.className = "game";
    item.id = "game-" + (k + 1);
    item.addEventListener("click", function () { show(k, 0); });
    list.appendChild(item);
  });

  function draw() {
    var game = games[current];
    var position = game.boards[ply];
    // Umea's form: the side to move, then 64 cells, O white, X black, E empty.
    for (var i = 0; i < 64; i++) {
      var c = position.charAt(i + 1);
      var disc = c === "O" ? "W" : c === "X" ? "B" : "";
      cells[i].textContent = disc;
      cells[i].className = disc === "W" ? "white" : disc === "B" ? "black" : "";
    }
    var last = ply > 0 ? game.moves[ply - 1] : null;
    if (last && last !== "pass") {
      document.getElementById("cell-" + last).className += " last";
    }
    text(document.getElementById("game-title"), "game " + (current + 1) + ": " + game.white +
      " (White) vs " + game.black + " (Black)");
    text(document.getElementById("move-info"), ply === 0 ? "start (" +
      (position.charAt(0) === "W" ? "White" : "Black") + " to move)" :
      "move " + ply + " of " + game.moves.length + ": " + last);
    var moves = document.getElementById("moves").children;
    for (var m = 0; m < moves.length; m++) {
      moves[m].className = m === ply - 1 ? "current" : "";
    }
  }

  function show(k, at) {
    current = k;
    var game = games[k];
    var moves = document.getElementById("moves");
    moves.textContent = "";
    game.moves.forEach(function (move, m) {
      var item = make("li", move);
      item.addEventListener("click", function () { ply = m + 1; draw(); });
      moves.appendChild(item);
    });
    var forfeit = document.getElementById("forfeit");
    forfeit.textContent = "";
    if (game.forfeit) {
      var f = game.forfeit;
      forfeit.appendChild(make("p", f.player + " forfeits at move " + f.move + ": " + f.reason));
      forfeit.appendChild(make("p", "answer: " + f.answer));
      forfeit.appendChild(make("p", f.detail));
    }
    var review = document.getElementById("review");
    review.textContent = "";
    Object.keys(game.review || {}).forEach(function (player) {
      var r = game.review[player];
      review.appendChild(make("p", player + ": " + r.moves_reviewed + " moves reviewed, " +
        r.discs_lost + " discs lost"));
      var worst = document.createElement("ul");
      r.worst.forEach(function (w) {
        var item = make("li", "move " + w.move + " " + w.played + " lost " + w.loss +
          " discs (best " + w.best + (w.exact ? ", exact" : "") + ")");
        item.addEventListener("click", function () { ply = w.move - 1; draw(); });
        worst.appendChild(item);
      });
      review.appendChild(worst);
    });
    ply = at;
    draw();
  }

  function step(to) {
    ply = Math.max(0, Math.min(games[current].moves.length, to));
    draw();
  }
  document.getElementById("first").addEventListener("click", function () { step(0); });
  document.getElementById("prev").addEventListener("click", function () { step(ply - 1); });
  document.getElementById("next").addEventListener("click", function () { step(ply + 1); });
  document.getElementById("last").addEventListener("click", function () {
    step(games[current].moves.length);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { step(ply + 1); }
    if (event.key === "ArrowLeft") { step(ply - 1); }
  });
  if (games.length > 0) { show(0, 0); }
}());
