// The tree page's script, written by hand, no library. It reads the log from the
// JSON in the page (see page.rs for its form), keeps which nodes are open, and
// draws only the rows on screen. Text from the log goes on screen as text
// (textContent), never as markup.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const S = D.strings;
  const ROW = 28, INDENT = 26, MAX_HEIGHT = 8000000;

  // Nodes, in the order of their visits.
  const N = D.nodes.length / 3;
  const nameOf = new Int32Array(N), parent = new Int32Array(N), depth = new Int32Array(N);
  const visit = new Float64Array(N);
  let visitSoFar = 0;
  for (let i = 0; i < N; i++) {
    nameOf[i] = D.nodes[3 * i];
    const up = D.nodes[3 * i + 1];
    parent[i] = up === 0 ? -1 : i - up;
    depth[i] = parent[i] < 0 ? 0 : depth[parent[i]] + 1;
    visitSoFar += D.nodes[3 * i + 2];
    visit[i] = visitSoFar;
  }
  const childStart = new Int32Array(N + 1);
  for (let i = 1; i < N; i++) childStart[parent[i] + 1]++;
  for (let i = 0; i < N; i++) childStart[i + 1] += childStart[i];
  const children = new Int32Array(Math.max(N - 1, 0));
  {
    const fill = childStart.slice(0, N);
    for (let i = 1; i < N; i++) children[fill[parent[i]]++] = i;
  }
  const childCount = (n) => childStart[n + 1] - childStart[n];

  // Prints, in log order, and each node's prints.
  const P = D.prints.length / 3;
  const printNode = new Int32Array(P), printFields = new Int32Array(P), printLine = new Float64Array(P);
  let lineSoFar = 0;
  for (let i = 0; i < P; i++) {
    printNode[i] = D.prints[3 * i];
    printFields[i] = D.prints[3 * i + 1];
    lineSoFar += D.prints[3 * i + 2];
    printLine[i] = lineSoFar;
  }
  const printStart = new Int32Array(N + 1);
  for (let i = 0; i < P; i++) printStart[printNode[i] + 1]++;
  for (let i = 0; i < N; i++) printStart[i + 1] += printStart[i];
  const printsOf = new Int32Array(P);
  {
    const fill = printStart.slice(0, N);
    for (let i = 0; i < P; i++) printsOf[fill[printNode[i]]++] = i;
  }

  const hidden = new Map();
  for (let i = 0; i < D.hidden.length; i += 2) hidden.set(D.hidden[i], D.hidden[i + 1]);
  const illegal = new Set(D.illegal);
  const chosen = new Uint8Array(N);
  for (const n of D.chosen) chosen[n] = 1;
  const cuts = new Map();
  const causeOf = new Map();
  for (const [node, by, byNode, returned, skipped] of D.cuts) {
    cuts.set(node, { by: S[by], byNode, returned: S[returned], skipped: skipped && skipped.map((s) => S[s]) });
    if (byNode >= 0) causeOf.set(byNode, node);
  }

  // With a student's log and the input: the student's tree against ours.
  const diff = D.diff;
  const extra = new Uint8Array(N), changedNotes = new Map(), missingUnder = new Map(), ourCut = new Map();
  if (diff) {
    for (const n of diff.extra) extra[n] = 1;
    for (const [n, notes] of diff.notes) changedNotes.set(n, notes);
    diff.missing.forEach(([under], i) => {
      if (!missingUnder.has(under)) missingUnder.set(under, []);
      missingUnder.get(under).push(i);
    });
    for (const [n, text] of diff.ourCuts) ourCut.set(n, text);
  }

  const name = (n) => S[nameOf[n]];
  const plural = (count, one, many) => count + " " + (count === 1 ? one : many);
  const fieldsOf = (p) => S[printFields[p]].split(",");
  const isMax = (n) => depth[n] % 2 === 0;
  const kind = (n) => (isMax(n) ? "MAX" : "MIN");
  const short = (v) => (v === undefined ? "" : v.replace("Infinity", "∞"));
  const pathOf = (n) => {
    const path = [];
    for (let at = n; at >= 0; at = parent[at]) path.push(at);
    return path.reverse();
  };
  const pathText = (n) => pathOf(n).map(name).join(" > ");

  // The step through the log: the index of the print shown last (P - 1: the whole log).
  let step = P - 1;
  // The last print of node n at or before the step, or -1.
  function printAt(n) {
    let lo = printStart[n], hi = printStart[n + 1] - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (printsOf[mid] <= step) { found = printsOf[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }
  // The print of n before print p, or -1.
  function printBefore(n, p) {
    let found = -1;
    for (let i = printStart[n]; i < printStart[n + 1] && printsOf[i] < p; i++) found = printsOf[i];
    return found;
  }

  // The step's state: a node is reached once its first line is; its cut-off is
  // known once its last line (the one after the child that caused it) is.
  const firstPrint = (n) => (printStart[n + 1] > printStart[n] ? printsOf[printStart[n]] : P);
  const lastPrint = (n) => (printStart[n + 1] > printStart[n] ? printsOf[printStart[n + 1] - 1] : P);
  const reached = (n) => firstPrint(n) <= step;
  const cutKnown = (n) => cuts.has(n) && lastPrint(n) <= step;
  const final = () => step === P - 1;

  // A value as written in a log, as a number (NaN when it is not one).
  function number(text) {
    if (text === undefined) return NaN;
    const t = text.trim();
    if (t === "Infinity" || t === "+Infinity") return Infinity;
    if (t === "-Infinity") return -Infinity;
    return /^[-+]?\d+$/.test(t) ? Number(t) : NaN;
  }
  const known = (x) => !Number.isNaN(x);
  const reachesCut = (n, f) => {
    const v = number(f[0]), bound = number(isMax(n) ? f[2] : f[1]);
    return known(v) && known(bound) && (isMax(n) ? v >= bound : v <= bound);
  };
  // The moves a cut-off skips, in words: "e3 and c5 are not searched".
  function skippedText(cut) {
    if (!cut.skipped) return "the moves after " + cut.by + ", if any, are not searched (the input names them)";
    if (cut.skipped.length === 0) return cut.by === "pass" ? "pass was its only child, so none is skipped" : cut.by + " was its last move, so none is skipped";
    if (cut.skipped.length === 1) return cut.skipped[0] + " is not searched";
    return cut.skipped.slice(0, -1).join(", ") + " and " + cut.skipped[cut.skipped.length - 1] + " are not searched";
  }
  // What print p of node n says and why, in short sentences: how v, α and β came
  // to be what it prints, from the node's line before and the child that returned.
  // Only what the two lines show: a value the rule would not give is said to differ.
  function explainPrint(n, p) {
    const f = fieldsOf(p);
    const before = printBefore(n, p);
    const said = [];
    if (before < 0) {
      if (parent[n] < 0) {
        said.push("the root: v starts at " + short(f[0]) + ", α " + short(f[1]) + ", β " + short(f[2]));
        return said;
      }
      const up = printBefore(parent[n], p);
      const leaf = childCount(n) === 0 && !hidden.has(n) && lastPrint(n) === p;
      if (leaf) said.push("a leaf: v " + short(f[0]) + " is its board's evaluation");
      else said.push("enters: v starts at " + short(f[0]) + " (" + kind(n) + ")");
      if (up >= 0 && f.length >= 3) {
        const u = fieldsOf(up);
        const same = u[1] === f[1] && u[2] === f[2];
        said.push(same ? "α " + short(f[1]) + ", β " + short(f[2]) + " passed down from " + name(parent[n])
          : "α " + short(f[1]) + ", β " + short(f[2]) + " (" + name(parent[n]) + " had α " + short(u[1]) + ", β " + short(u[2]) + ")");
      }
      return said;
    }
    const was = fieldsOf(before);
    const c = p > 0 ? printNode[p - 1] : -1;
    const child = c >= 0 && parent[c] === n ? c : -1;
    const fn = isMax(n) ? "max" : "min";
    const pick = isMax(n) ? Math.max : Math.min;
    let v = number(f[0]);
    if (child >= 0) {
      const r = fieldsOf(p - 1)[0];
      said.push(name(child) + " returned " + short(r));
      const rule = pick(number(was[0]), number(r));
      if (known(rule) && known(v)) {
        said.push(rule === v ? "v = " + fn + "(" + short(was[0]) + ", " + short(r) + ") = " + short(f[0])
          : "v " + short(was[0]) + " → " + short(f[0]) + ", but " + fn + "(" + short(was[0]) + ", " + short(r) + ") is " + short(String(rule)));
      } else if (was[0] !== f[0]) said.push("v " + short(was[0]) + " → " + short(f[0]));
    } else if (was[0] !== f[0]) said.push("v " + short(was[0]) + " → " + short(f[0]));
    if (f.length < 3) return said;
    const i = isMax(n) ? 1 : 2, letter = isMax(n) ? "α" : "β";
    const other = isMax(n) ? 2 : 1, otherLetter = isMax(n) ? "β" : "α";
    if (reachesCut(n, f)) {
      let text = "v " + short(f[0]) + (isMax(n) ? " >= β " + short(f[2]) : " <= α " + short(f[1])) + ": cut-off";
      const cut = cuts.get(n);
      if (cut && lastPrint(n) === p) text += ", " + skippedText(cut);
      else if (lastPrint(n) !== p) text += ", yet the log goes on to another child";
      said.push(text);
      const moved = [];
      if (was[1] !== f[1]) moved.push("α " + short(was[1]) + " → " + short(f[1]));
      if (was[2] !== f[2]) moved.push("β " + short(was[2]) + " → " + short(f[2]));
      if (moved.length) said.push(moved.join(", ") + " at the cut-off: a node that prunes prints α and β unchanged");
      else said.push("α, β unchanged: it returns " + short(f[0]));
      return said;
    }
    const rule = pick(number(was[i]), v);
    if (known(rule) && known(number(f[i]))) {
      if (rule === number(f[i])) said.push(letter + " = " + fn + "(" + short(was[i]) + ", " + short(f[0]) + ") = " + short(f[i]) + (was[i] === f[i] ? " (unchanged)" : ""));
      else said.push(letter + " " + short(was[i]) + " → " + short(f[i]) + ", but " + fn + "(" + short(was[i]) + ", " + short(f[0]) + ") is " + short(String(rule)));
    } else if (was[i] !== f[i]) said.push(letter + " " + short(was[i]) + " → " + short(f[i]));
    if (was[other] !== f[other]) said.push(otherLetter + " " + short(was[other]) + " → " + short(f[other]) + ", but a " + kind(n) + " node changes only " + letter);
    return said;
  }

  // The cut-off in words; the same sentence as Tree::cut_text in Rust.
  function cutText(n) {
    const cut = cuts.get(n);
    const last = printsOf[printStart[n + 1] - 1];
    const f = fieldsOf(last);
    const value = f[0];
    const relation = isMax(n) ? ">= beta" : "<= alpha";
    const bound = isMax(n) ? f[2] : f[1];
    const returned = cut.returned === value ? cut.by + " returned " + value
      : cut.by + " returned " + cut.returned + ", so v = " + value;
    let skipped;
    if (!cut.skipped) skipped = "the moves after it, if any, were not searched (the input names them)";
    else if (cut.skipped.length === 0 && cut.by === "pass") skipped = "pass was its only child, so none was skipped";
    else if (cut.skipped.length === 0) skipped = cut.by + " was its last move, so none was skipped";
    else if (cut.skipped.length === 1) skipped = cut.skipped[0] + " was not searched";
    else skipped = cut.skipped.join(", ") + " were not searched";
    return returned + " " + relation + " " + bound + " at this " + kind(n) + " node: " + skipped;
  }

  // Which nodes are open, and the rows that shows: a node, or below an open node
  // after its children, its cut-off, each move it skipped, and the count of nodes
  // not kept.
  const NODE = 0, CUT = 1, SKIP = 2, HIDDEN = 3, MISSING = 4, OURCUT = 5;
  // Our nodes missing under n, and our other cut-off there: shown once n is done.
  const missingShown = (n) => missingUnder.has(n) && lastPrint(n) <= step;
  const ourCutShown = (n) => ourCut.has(n) && lastPrint(n) <= step;
  const missingNames = (n) => (missingUnder.has(n) ? missingUnder.get(n).map((i) => diff.missing[i][1]) : []);
  const open = new Uint8Array(N);
  const hasRows = (n) => childCount(n) > 0 || cutKnown(n) || hidden.has(n) || missingShown(n) || ourCutShown(n);
  let rowCount = 0, deepestRow = 0;
  let rowKind = new Uint8Array(0), rowRef = new Int32Array(0), rowExtra = new Int32Array(0);
  const rowOf = new Int32Array(N);
  function flatten() {
    let capacity = N + 1;
    for (const [, cut] of cuts) capacity += 1 + (cut.skipped ? cut.skipped.length : 0);
    capacity += hidden.size + (diff ? diff.missing.length + diff.ourCuts.length : 0);
    if (rowKind.length < capacity) {
      rowKind = new Uint8Array(capacity); rowRef = new Int32Array(capacity); rowExtra = new Int32Array(capacity);
    }
    rowOf.fill(-1);
    let count = 0;
    const stack = [0];
    while (stack.length) {
      const item = stack.pop();
      if (item >= 0) {
        rowKind[count] = NODE; rowRef[count] = item; rowOf[item] = count; count++;
        if (open[item] && hasRows(item)) {
          stack.push(-item - 1);
          for (let c = childStart[item + 1] - 1; c >= childStart[item]; c--) stack.push(children[c]);
        }
      } else {
        const n = -item - 1;
        if (missingShown(n)) for (const i of missingUnder.get(n)) { rowKind[count] = MISSING; rowRef[count] = n; rowExtra[count] = i; count++; }
        if (ourCutShown(n)) { rowKind[count] = OURCUT; rowRef[count] = n; count++; }
        const cut = cutKnown(n) ? cuts.get(n) : undefined;
        if (cut) {
          rowKind[count] = CUT; rowRef[count] = n; count++;
          const ours = missingNames(n);
          for (let k = 0; cut.skipped && k < cut.skipped.length; k++) {
            if (ours.includes(cut.skipped[k])) continue;
            rowKind[count] = SKIP; rowRef[count] = n; rowExtra[count] = k; count++;
          }
        }
        if (hidden.has(n)) { rowKind[count] = HIDDEN; rowRef[count] = n; count++; }
      }
    }
    rowCount = count;
    deepestRow = 0;
    for (let r = 0; r < rowCount; r++) if (depth[rowRef[r]] > deepestRow) deepestRow = depth[rowRef[r]];
  }

  // Whether the vertical line of node n's parent goes on below n's rows.
  function continues(n) {
    const p = parent[n];
    if (p < 0) return false;
    return children[childStart[p + 1] - 1] !== n || cutKnown(p) || hidden.has(p) || missingShown(p) || ourCutShown(p);
  }

  const tree = document.getElementById("tree");
  const canvas = document.getElementById("canvas");
  const detail = document.getElementById("detail");
  const status = document.getElementById("status");
  let selected = 0;
  let scale = 1;

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function line(row, className, left, top, width, height) {
    const e = el("div", "line " + className);
    e.style.left = left + "px"; e.style.top = top + "px";
    if (width) e.style.width = width + "px";
    if (height) e.style.height = height + "px";
    row.appendChild(e);
  }

  // The column of the line down to the nodes at depth d.
  const column = (d) => (d - 1) * INDENT + INDENT / 2;
  // The chosen child of each node on the chosen line.
  const chosenChild = new Int32Array(N).fill(-1);
  for (const n of D.chosen) if (parent[n] >= 0) chosenChild[parent[n]] = n;

  // The lines of a row at `level`: those of the parents that go on past it, and
  // its own elbow of the class `own`, going on down if `goesOn`. `n` is the row's
  // node, or for the rows after a node's children, that node.
  function drawLines(row, level, n, own, goesOn) {
    const whole = final();
    const self = depth[n] === level;
    for (let a = self ? parent[n] : n; a > 0; a = parent[a]) {
      if (continues(a)) line(row, "v" + (whole && chosenChild[parent[a]] > a ? " chosen" : ""), column(depth[a]), 0, 0, ROW);
    }
    const x = column(level);
    // The chosen line passes by on its way to a later sibling.
    const passing = whole && self && chosenChild[parent[n]] > n;
    const dashed = own === "skip";
    line(row, dashed ? "skipv" : "v " + (passing ? "chosen" : own), x, 0, 0, ROW / 2 + 1);
    if (goesOn) line(row, dashed ? "skipv" : "v" + (passing ? " chosen" : ""), x, ROW / 2, 0, ROW / 2);
    line(row, (dashed ? "skip" : own) + " h", x, ROW / 2, INDENT / 2 + 2, 0);
  }

  function nodeRow(n, top) {
    const row = el("div", "row node " + (isMax(n) ? "max" : "min"));
    row.style.top = top + "px";
    row.dataset.node = n;
    const p = printAt(n);
    if (childCount(n) === 0 && !hidden.has(n)) row.classList.add("leaf");
    if (chosen[n] && step === P - 1) row.classList.add("chosen");
    if (n === selected) row.classList.add("selected");
    if (n === D.differs) row.classList.add("differs");
    if (p < 0) row.classList.add("future");
    if (step < P - 1 && printNode[step] === n) row.classList.add("current");
    const cause = causeOf.get(n) !== undefined && cutKnown(causeOf.get(n));
    if (depth[n] > 0) {
      drawLines(row, depth[n], n, cause ? "cause" : final() && chosen[n] ? "chosen" : "", continues(n));
    }
    const box = el("div", "box");
    box.style.left = depth[n] * INDENT + 2 + "px";
    box.appendChild(el("span", "tog", hasRows(n) ? (open[n] ? "▾" : "▸") : ""));
    box.appendChild(el("span", "name", name(n)));
    box.appendChild(el("span", "kind", kind(n)));
    if (p >= 0) {
      const f = fieldsOf(p);
      const before = step < P - 1 && printNode[step] === n ? printBefore(n, p) : -1;
      const was = before >= 0 ? fieldsOf(before) : null;
      const labels = ["v ", "α ", "β "], classes = ["v", "a", "b"];
      for (let i = 0; i < f.length; i++) {
        const label = i < 3 ? labels[i] : "";
        const changed = was && was[i] !== f[i];
        box.appendChild(el("span", (classes[i] || "x") + (changed ? " changed" : ""), label + short(f[i])));
      }
    } else {
      // Nothing about a node before the log reaches it.
      box.appendChild(el("span", "v", "not visited yet"));
      row.appendChild(box);
      return row;
    }
    box.appendChild(el("span", "visit", "#" + visit[n]));
    const lines = [];
    for (let i = printStart[n]; i < printStart[n + 1] && printsOf[i] <= step; i++) lines.push(printLine[printsOf[i]]);
    const shown = lines.length > 6 ? lines.slice(0, 6).join(", ") + ", … (" + lines.length + ")" : lines.join(", ");
    box.appendChild(el("span", "lines", (lines.length === 1 ? "line " : "lines ") + shown));
    if (cutKnown(n)) box.appendChild(el("span", "badge cut", "✂ cut-off"));
    if (cause) box.appendChild(el("span", "badge cause", "✂ caused the cut-off"));
    if (illegal.has(n)) box.appendChild(el("span", "badge illegal", "not a legal move"));
    if (extra[n]) { row.classList.add("extra"); box.appendChild(el("span", "badge extra", "only in yours: ours does not visit it")); }
    if (changedNotes.has(n)) { row.classList.add("changed"); box.appendChild(el("span", "badge changed", "differs from ours")); }
    if (!open[n] && hidden.has(n)) box.appendChild(el("span", "badge more", "+" + hidden.get(n) + " not drawn"));
    if (n === D.differs && D.comparison) box.appendChild(comparisonInline());
    row.appendChild(box);
    return row;
  }

  function comparisonInline() {
    const c = D.comparison;
    const span = el("span", "cmp");
    span.appendChild(el("span", "exp", "expected: " + (c.expected === null ? "(end of file)" : c.expected)));
    span.appendChild(document.createTextNode("  ≠  "));
    span.appendChild(el("span", "act", "yours: " + (c.actual === null ? "(end of file)" : c.actual)));
    return span;
  }

  function pseudoRow(r, top) {
    const n = rowRef[r], level = depth[n] + 1;
    const kindOfRow = rowKind[r];
    const row = el("div", "row " + ["", "cutrow", "skip", "hidden", "missing", "cutrow ours"][kindOfRow]);
    row.style.top = top + "px";
    row.dataset.parent = n;
    const last = r + 1 >= rowCount || rowKind[r + 1] === NODE || rowRef[r + 1] !== n;
    const x = level * INDENT + 4;
    if (kindOfRow === CUT) {
      drawLines(row, level, n, "cause", !last);
      row.appendChild(textAt((ourCut.has(n) ? "yours: ✂ " : "✂ ") + cutText(n), x));
    } else if (kindOfRow === MISSING) {
      const [, moveName, below, lines] = diff.missing[rowExtra[r]];
      drawLines(row, level, n, "missing", !last);
      const box = el("div", "box");
      box.style.left = level * INDENT + 2 + "px";
      box.appendChild(el("span", "name", moveName));
      box.appendChild(el("span", "", "only in ours: your log never visits it" + (below ? " (nor the " + plural(below, "node", "nodes") + " below it)" : "")));
      if (lines.length) box.appendChild(el("span", "lines", "ours prints " + lines.join(" · ")));
      row.appendChild(box);
    } else if (kindOfRow === OURCUT) {
      drawLines(row, level, n, "", !last);
      row.appendChild(textAt(ourCut.get(n), x));
    } else if (kindOfRow === SKIP) {
      drawLines(row, level, n, "skip", !last);
      const box = el("div", "box");
      box.style.left = level * INDENT + 2 + "px";
      box.appendChild(el("span", "name", cuts.get(n).skipped[rowExtra[r]]));
      box.appendChild(el("span", "", "not searched (pruned by the cut-off above)"));
      row.appendChild(box);
    } else {
      drawLines(row, level, n, "", !last);
      row.appendChild(textAt("+" + plural(hidden.get(n), "node", "nodes") + " below not drawn in this page (see the note at the top)", x));
    }
    return row;
  }
  function textAt(text, left) {
    const t = el("span", "text", text);
    t.style.left = left + "px";
    return t;
  }

  // Sizes the canvas for the rows open (before scrolling to one of them).
  function size() {
    const total = rowCount * ROW;
    const height = Math.min(total, MAX_HEIGHT);
    canvas.style.height = height + "px";
    canvas.style.width = (deepestRow + 2) * INDENT + 900 + "px";
    const view = tree.clientHeight;
    scale = total > height && height > view ? (total - view) / (height - view) : 1;
  }
  const group = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

  // Draws the rows on screen (and a few more).
  function render() {
    size();
    const view = tree.clientHeight;
    const virtualTop = tree.scrollTop * scale;
    const first = Math.max(0, Math.floor(virtualTop / ROW) - 5);
    const last = Math.min(rowCount, Math.ceil((virtualTop + view) / ROW) + 5);
    const rows = [];
    for (let r = first; r < last; r++) {
      const top = r * ROW - virtualTop + tree.scrollTop;
      rows.push(rowKind[r] === NODE ? nodeRow(rowRef[r], top) : pseudoRow(r, top));
    }
    canvas.replaceChildren(...rows);
    tree.dataset.rows = rowCount;
    tree.dataset.drawn = rows.length;
    status.textContent = "This page holds " + group(N) + " of the log's " + group(D.visits) + " nodes (" +
      group(D.logLines) + " log lines). Opened as now, the tree has " + group(rowCount) +
      " rows (nodes, cut-offs, moves not searched); the " + rows.length + " near the view are drawn.";
    stickyPath();
  }
  // The path of the row at the top of the view, kept above the tree.
  const pathBar = document.getElementById("pathbar");
  function stickyPath() {
    const r = Math.min(rowCount - 1, Math.max(0, Math.ceil((tree.scrollTop * scale) / ROW)));
    const n = r < 0 ? 0 : rowKind[r] === NODE ? parent[rowRef[r]] : rowRef[r];
    pathBar.replaceChildren();
    if (n < 0 || tree.scrollTop === 0) { pathBar.classList.remove("shown"); return; }
    pathBar.classList.add("shown");
    pathBar.appendChild(el("span", "label", "in "));
    pathOf(n).forEach((a, i) => {
      if (i) pathBar.appendChild(el("span", "sep", " › "));
      const seg = el("a", "seg", name(a) + " " + kind(a));
      seg.dataset.node = a;
      seg.href = "#";
      pathBar.appendChild(seg);
    });
  }
  pathBar.addEventListener("click", (event) => {
    const a = event.target.closest(".seg");
    if (!a) return;
    event.preventDefault();
    select(Number(a.dataset.node), true);
  });
  let pending = false;
  function update() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; render(); });
  }
  tree.addEventListener("scroll", update);
  window.addEventListener("resize", update);

  function scrollToRow(r) {
    const virtualTop = tree.scrollTop * scale, view = tree.clientHeight;
    if (r * ROW < virtualTop || (r + 1) * ROW > virtualTop + view) {
      tree.scrollTop = Math.max(0, r * ROW - view / 3) / scale;
    }
  }
  function reveal(n) {
    for (let a = parent[n]; a >= 0; a = parent[a]) open[a] = 1;
    flatten();
  }
  function select(n, scroll) {
    selected = n;
    showDetail(n);
    size();
    if (scroll) scrollToRow(rowOf[n]);
    render();
  }
  function toggle(n, value) {
    if (!hasRows(n)) return;
    open[n] = value === undefined ? 1 - open[n] : value;
    flatten();
    render();
  }

  canvas.addEventListener("click", (event) => {
    const row = event.target.closest(".row.node");
    if (!row) return;
    const n = Number(row.dataset.node);
    if (event.target.classList.contains("tog")) toggle(n);
    else if (!open[n]) toggle(n, 1);
    select(n, false);
    tree.focus({ preventScroll: true });
  });

  // The next or previous row of a node, from row r.
  function nodeRowFrom(r, direction) {
    for (let i = r + direction; i >= 0 && i < rowCount; i += direction) if (rowKind[i] === NODE) return rowRef[i];
    return -1;
  }
  tree.addEventListener("keydown", (event) => {
    const r = rowOf[selected];
    const page = Math.max(1, Math.floor(tree.clientHeight / ROW) - 1);
    let target = -1;
    switch (event.key) {
      case "ArrowDown": target = nodeRowFrom(r, 1); break;
      case "ArrowUp": target = nodeRowFrom(r, -1); break;
      case "PageDown": target = nodeRowFrom(Math.min(rowCount, r + page), -1); break;
      case "PageUp": target = nodeRowFrom(Math.max(-1, r - page), 1); break;
      case "Home": target = 0; break;
      case "End": target = nodeRowFrom(rowCount, -1); break;
      case "ArrowRight":
        if (hasRows(selected) && !open[selected]) toggle(selected, 1);
        else if (childCount(selected) > 0) target = children[childStart[selected]];
        break;
      case "ArrowLeft":
        if (open[selected] && hasRows(selected)) toggle(selected, 0);
        else if (parent[selected] >= 0) target = parent[selected];
        break;
      case "Enter": case " ": toggle(selected); break;
      case "n": case ".": stepNext(); break;
      case "p": case ",": stepTo(step - 1); break;
      case "/": document.getElementById("search").focus(); break;
      default: return;
    }
    event.preventDefault();
    if (target >= 0) select(target, true);
  });

  // Search: a path of move names from the root.
  const search = document.getElementById("search");
  const searchMessage = el("span", "", "");
  searchMessage.id = "search-message";
  document.getElementById("search-form").appendChild(searchMessage);
  document.getElementById("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const names = search.value.split(/[\s,>›\/]+/).filter((s) => s);
    if (names[0] === "root") names.shift();
    let n = 0;
    for (const wanted of names) {
      let found = -1;
      for (let c = childStart[n]; c < childStart[n + 1]; c++) if (name(children[c]) === wanted) { found = children[c]; break; }
      if (found < 0) {
        const known = [];
        for (let c = childStart[n]; c < childStart[n + 1]; c++) known.push(name(children[c]));
        let message = pathText(n) + " has no child " + wanted + (known.length ? " here (its children: " + known.join(", ") + ")" : " here");
        if (hidden.has(n)) message += "; " + hidden.get(n) + " nodes below it are not in this page: rerun with --focus \"" + pathOf(n).slice(1).map(name).concat([wanted]).join(" ") + "\"";
        searchMessage.textContent = message;
        reveal(n);
        select(n, true);
        return;
      }
      n = found;
    }
    searchMessage.textContent = "";
    reveal(n);
    open[n] = 1;
    flatten();
    select(n, true);
    tree.focus({ preventScroll: true });
  });

  // The step through the log.
  const stepStatus = document.getElementById("step-status");
  function stepTo(s) {
    step = Math.max(0, Math.min(P - 1, s));
    const n = printNode[step];
    reveal(n);
    flatten();
    showStepStatus();
    select(n, true);
  }
  function showStepStatus() {
    stepStatus.replaceChildren();
    if (step === P - 1) {
      stepStatus.textContent = "showing the whole log" + (P < D.logLines ? " (the " + P + " lines of the nodes drawn)" : "") +
        "; press next ▶ to replay it from its first line";
      return;
    }
    const n = printNode[step];
    const f = fieldsOf(step);
    const before = printBefore(n, step);
    stepStatus.appendChild(document.createTextNode("line " + printLine[step] + " (" + (step + 1) + " of " + P + "): " +
      name(n) + "," + depth[n] + "," + f.join(",") + " — "));
    const why = explainPrint(n, step);
    if (before < 0) {
      stepStatus.appendChild(document.createTextNode("enters " + pathText(n) + ": "));
    } else {
      const was = fieldsOf(before);
      const changes = [];
      const labels = ["v", "α", "β"];
      for (let i = 0; i < Math.min(3, f.length); i++) if (was[i] !== f[i]) changes.push(labels[i] + " " + short(was[i]) + " → " + short(f[i]));
      stepStatus.appendChild(document.createTextNode("back at " + pathText(n) + ": "));
      stepStatus.appendChild(el("span", "changed", changes.length ? changes.join(", ") : "no change"));
      stepStatus.appendChild(document.createTextNode(" — "));
    }
    const said = el("span", "why", why.join("; "));
    said.id = "step-why";
    if (cutKnown(n) && lastPrint(n) === step) said.classList.add("cutnow");
    stepStatus.appendChild(said);
  }
  document.getElementById("step-first").addEventListener("click", () => stepTo(0));
  document.getElementById("step-back").addEventListener("click", () => stepTo(step - 1));
  // Next: after the whole log, the first line again (button and key alike).
  function stepNext() { stepTo(step === P - 1 ? 0 : step + 1); }
  document.getElementById("step-next").addEventListener("click", stepNext);
  document.getElementById("step-last").addEventListener("click", () => { step = P - 1; flatten(); showStepStatus(); select(selected, true); });
  document.getElementById("expand-all").addEventListener("click", () => { open.fill(1); flatten(); render(); });
  document.getElementById("collapse-all").addEventListener("click", () => { open.fill(0); open[0] = 1; flatten(); select(0, true); });

  // The board of node n, replayed from the root's; the move and its flips marked.
  function boardOf(n) {
    if (!D.board) return null;
    const cells = D.board.split("");
    let player = D.toMove, move = -1, flipped = [], legal = true;
    for (const m of pathOf(n).slice(1)) {
      flipped = []; move = -1;
      const moveName = name(m);
      if (moveName !== "pass") {
        const col = moveName.charCodeAt(0) - 97, r = moveName.charCodeAt(1) - 49;
        if (moveName.length !== 2 || col < 0 || col > 7 || r < 0 || r > 7 || cells[r * 8 + col] !== "*") { legal = false; break; }
        const other = player === "X" ? "O" : "X";
        for (const [dr, dc] of [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]) {
          const line = [];
          let rr = r + dr, cc = col + dc;
          while (rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && cells[rr * 8 + cc] === other) { line.push(rr * 8 + cc); rr += dr; cc += dc; }
          if (line.length && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && cells[rr * 8 + cc] === player) flipped.push(...line);
        }
        if (!flipped.length) { legal = false; break; }
        move = r * 8 + col;
        cells[move] = player;
        for (const i of flipped) cells[i] = player;
      }
      player = player === "X" ? "O" : "X";
    }
    return { cells, player, move, flipped, legal };
  }

  function showDetail(n) {
    detail.replaceChildren();
    detail.appendChild(el("h2", "", pathText(n)));
    detail.appendChild(el("p", "", kind(n) + " node at depth " + depth[n] + ", visit #" + visit[n] +
      (childCount(n) ? ", " + plural(childCount(n), "child", "children") + " drawn" : "") +
      (hidden.has(n) ? ", " + plural(hidden.get(n), "node", "nodes") + " below not drawn" : "")));
    if (n === D.differs && D.comparison) detail.appendChild(comparisonTable());
    if (!reached(n)) {
      detail.appendChild(el("p", "", "Not visited yet at this line of the log."));
      return;
    }
    if (cutKnown(n)) detail.appendChild(el("p", "explain", "✂ Cut-off: " + cutText(n)));
    if (extra[n]) detail.appendChild(el("p", "explain", "Only in yours: our search does not visit this node" +
      (extra[parent[n]] ? " (nor its parent)." : (ourCut.has(parent[n]) ? ". " + ourCut.get(parent[n]) : "."))));
    if (changedNotes.has(n)) {
      detail.appendChild(el("p", "explain", "Differs from ours:"));
      const list = el("ul", "notes");
      for (const note of changedNotes.get(n)) list.appendChild(el("li", "", note));
      detail.appendChild(list);
    }
    if (ourCut.has(n) && lastPrint(n) <= step) detail.appendChild(el("p", "explain ours", ourCut.get(n)));
    const causeParent = causeOf.get(n);
    if (causeParent !== undefined && cutKnown(causeParent)) detail.appendChild(el("p", "explain", "Its value made " + name(causeParent) + " cut off: " + cutText(causeParent)));
    const table = el("table");
    const head = el("tr");
    for (const h of ["line", "v", "α", "β"]) head.appendChild(el("th", "", h));
    table.appendChild(head);
    table.classList.add("prints");
    for (let i = printStart[n]; i < printStart[n + 1] && printsOf[i] <= step; i++) {
      const p = printsOf[i];
      const tr = el("tr", p === step && step < P - 1 ? "now" : "");
      tr.appendChild(el("td", "", String(printLine[p])));
      const f = fieldsOf(p);
      for (let k = 0; k < 3; k++) tr.appendChild(el("td", "", f[k] === undefined ? "" : f[k]));
      table.appendChild(tr);
      const why = el("tr", "why" + (p === step && step < P - 1 ? " now" : ""));
      const cell = el("td", "why", explainPrint(n, p).join("; "));
      cell.colSpan = 4;
      why.appendChild(cell);
      table.appendChild(why);
    }
    detail.appendChild(el("p", "", (final() ? "Every line it printed" : "The lines it printed so far") + " (the first on entry, one after each child returns), and why:"));
    detail.appendChild(table);
    const board = boardOf(n);
    if (board) {
      detail.appendChild(el("p", "", board.legal ? "The board here, " + board.player + " to move (" +
        (board.move >= 0 ? name(n) + " ringed red, the discs it turned yellow" : "no move placed") + "):" : "No board: a move on the way here is not legal."));
      if (board.legal) detail.appendChild(drawBoard(board));
    } else {
      detail.appendChild(el("p", "", "Boards need the input file."));
    }
  }

  function comparisonTable() {
    const c = D.comparison;
    const wrap = el("div", "compare");
    // (the mistake said once: an explanation that names it, or opens at its node and
    // line, is shown as it is)
    const unnamed = c.mistake && !c.explanation.includes(c.mistake);
    const lead = unnamed ? "Line " + c.line + " differs (" + c.mistake + "): "
      : c.explanation.startsWith("At ") ? "" : "Line " + c.line + " differs: ";
    wrap.appendChild(el("p", "explain", lead + c.explanation));
    const table = el("table", "compare");
    const split = (text) => (text === null ? ["(end of file)"] : text.split(","));
    const exp = split(c.expected), act = split(c.actual);
    const head = el("tr");
    for (const h of ["", "node", "depth", "v", "α", "β"]) head.appendChild(el("th", "", h));
    table.appendChild(head);
    for (const [label, cells, other, cls] of [["expected", exp, act, "exp"], ["yours", act, exp, "act"]]) {
      const tr = el("tr");
      tr.appendChild(el("th", "", label));
      for (let i = 0; i < Math.max(5, cells.length); i++) {
        const text = cells[i] === undefined ? "" : cells[i];
        tr.appendChild(el("td", cls + (text !== (other[i] === undefined ? "" : other[i]) ? " diff" : ""), text));
      }
      table.appendChild(tr);
    }
    wrap.appendChild(table);
    return wrap;
  }

  function drawBoard(board) {
    const grid = el("div", "board");
    grid.appendChild(el("div", "label", ""));
    for (let c = 0; c < 8; c++) grid.appendChild(el("div", "label", "abcdefgh"[c]));
    for (let r = 0; r < 8; r++) {
      grid.appendChild(el("div", "label", String(r + 1)));
      for (let c = 0; c < 8; c++) {
        const i = r * 8 + c, cell = el("div", "cell");
        cell.dataset.cell = "abcdefgh"[c] + (r + 1);
        if (i === board.move) cell.classList.add("move");
        if (board.flipped.includes(i)) cell.classList.add("flipped");
        if (board.cells[i] !== "*") cell.appendChild(el("div", "disc " + board.cells[i]));
        grid.appendChild(cell);
      }
    }
    const wrap = el("div");
    wrap.appendChild(grid);
    wrap.dataset.cells = board.cells.join("");
    wrap.id = "board";
    return wrap;
  }

  // Opening: every node when few, else as deep as OPEN_ROWS rows allow, the
  // chosen line, and the node to look at first (a difference, or the focus).
  {
    const perDepth = [];
    for (let i = 0; i < N; i++) perDepth[depth[i]] = (perDepth[depth[i]] || 0) + 1;
    let shown = 0, openBelow = Infinity;
    for (let d = 0; d < perDepth.length; d++) {
      shown += perDepth[d];
      if (shown > D.openRows) { openBelow = d - 1; break; }
    }
    for (let i = 0; i < N; i++) if (depth[i] < openBelow) open[i] = 1;
    for (const n of D.chosen) if (childCount(n)) open[n] = 1;
    open[0] = 1;
    const first = D.openAt >= 0 ? D.openAt : 0;
    if (D.openAt >= 0) open[first] = 1;
    reveal(first);
    showStepStatus();
    select(first, true);
    // When the first rows were drawn, in ms after the page was asked for.
    tree.dataset.drawnMs = Math.round(performance.now());
  }
})();
