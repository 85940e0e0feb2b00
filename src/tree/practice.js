// The practice page's script, written by hand, no library. It draws the whole move
// tree from the JSON in the page (see practice.rs), with a "not searched" box on
// each node and v, α, β fields on each inner node, and checks the answers against
// our traverse log, line by line. Text goes on screen as text, never as markup.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const nodes = D.nodes.map(([name, parent, depth, value, path, searched, asked]) => ({ name, parent, depth, value, path, searched, asked, children: [] }));
  nodes.forEach((n, i) => { if (n.parent >= 0) nodes[n.parent].children.push(i); });
  const inner = (i) => nodes[i].children.length > 0;
  const isMax = (i) => nodes[i].depth % 2 === 0;
  // A node alpha-beta never visits whose parent it visits: the first of a pruned branch.
  const prunedTop = (i) => !nodes[i].searched && nodes[i].parent >= 0 && nodes[nodes[i].parent].searched;

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The tree, every node a row, in positional (search) order.
  const treeDiv = document.getElementById("practice-tree");
  const ticks = new Map(), fields = new Map(), marks = new Map();
  (function draw(i) {
    const n = nodes[i];
    const row = el("div", "prow " + (isMax(i) ? "max" : "min") + (inner(i) ? "" : " leaf"));
    row.dataset.node = i;
    row.dataset.path = n.path;
    row.style.paddingLeft = n.depth * 28 + "px";
    const box = el("span", "pbox");
    box.appendChild(el("b", "name", n.name));
    box.appendChild(el("span", "kind", isMax(i) ? "MAX" : "MIN"));
    if (n.value !== null) box.appendChild(el("span", "v", "eval " + n.value.replace("Infinity", "∞")));
    row.appendChild(box);
    if (n.parent >= 0) {
      const label = el("label", "pruned");
      const tick = el("input");
      tick.type = "checkbox";
      tick.dataset.path = n.path;
      label.appendChild(tick);
      label.appendChild(document.createTextNode(" not searched"));
      row.appendChild(label);
      ticks.set(i, { tick, label });
    }
    if (inner(i)) {
      const inputs = ["v", "α", "β"].map((letter, k) => {
        const input = el("input");
        input.type = "text";
        input.placeholder = letter;
        input.setAttribute("aria-label", letter + " of " + n.path);
        input.dataset.path = n.path;
        input.dataset.field = k;
        row.appendChild(document.createTextNode(" " + letter + " "));
        row.appendChild(input);
        return input;
      });
      fields.set(i, inputs);
    }
    const mark = el("span", "mark");
    row.appendChild(mark);
    marks.set(i, mark);
    treeDiv.appendChild(row);
    n.children.forEach(draw);
  })(0);

  // A value as the log writes it: 3, -3, Infinity, -Infinity (∞ and inf accepted).
  function normal(text) {
    const t = text.trim().toLowerCase().replace("∞", "infinity").replace(/^\+/, "");
    if (t === "inf" || t === "infinity") return "Infinity";
    if (t === "-inf" || t === "-infinity") return "-Infinity";
    return /^-?\d+$/.test(t) ? String(Number(t)) : text.trim();
  }

  const result = document.getElementById("practice-result");
  const logDiv = document.getElementById("practice-log");
  document.getElementById("check").addEventListener("click", check);
  document.getElementById("reveal").addEventListener("click", () => showLog(null));

  function check() {
    let total = 0, wrong = 0;
    // Per node: what is right or wrong about the answers on it, in words.
    const said = new Map();
    const say = (i, tick, right, text) => {
      total++;
      if (!right) wrong++;
      if (!said.has(i)) said.set(i, []);
      said.get(i).push({ tick, right, text });
    };
    nodes.forEach((n, i) => {
      const t = ticks.get(i);
      if (t) {
        t.label.classList.remove("right", "wrong");
        // Below a pruned node, nothing is asked: the branch is not searched.
        if (n.searched || prunedTop(i)) {
          const right = t.tick.checked === !n.searched;
          t.label.classList.add(right ? "right" : "wrong");
          say(i, true, right, n.searched ? (right ? n.name + " is searched" : "you ticked " + n.name + " as not searched; it is searched")
            : (right ? n.name + " is not searched" : n.name + " is not searched: you did not tick it"));
        }
      }
      const inputs = fields.get(i);
      if (inputs && n.searched) {
        const answer = D.answers[i];
        inputs.forEach((input, k) => {
          const right = normal(input.value) === answer[k];
          input.classList.remove("right", "wrong");
          input.classList.add(right ? "right" : "wrong");
          say(i, false, right, ["v", "α", "β"][k] + " " + (right ? answer[k] : (input.value.trim() || "(empty)") + ", ours " + answer[k]));
        });
      } else if (inputs) {
        inputs.forEach((input) => input.classList.remove("right", "wrong"));
      }
      const mark = marks.get(i);
      const list = said.get(i) || [];
      mark.className = "mark" + (list.length ? (list.every((x) => x.right) ? " right" : " wrong") : "");
      mark.textContent = list.length ? (list.every((x) => x.right) ? "✓" : "✗") : "";
    });
    result.textContent = wrong === 0 ? "All " + total + " answers right." : wrong + " of " + total + " answers wrong (marked red; our log, line by line, on the right).";
    result.className = wrong === 0 ? "right" : "wrong";
    showLog(said);
  }

  // Our log, line by line; with answers, each line with what was right or wrong of
  // the node it prints (on its last line) and of the moves pruned there.
  function showLog(said) {
    logDiv.replaceChildren(el("h2", "", "Our traverse log"));
    const last = new Map();
    D.log.forEach(([, , node], k) => last.set(node, k));
    const table = el("table");
    D.log.forEach(([line, text, node], k) => {
      const notes = [];
      if (said && last.get(node) === k) {
        for (const x of said.get(node) || []) if (!x.tick) notes.push(x);
        // Whether each child is searched (a cut-off here skips the moves after).
        for (const c of nodes[node].children) for (const x of said.get(c) || []) if (x.tick) notes.push(x);
      }
      const tr = el("tr", notes.length ? (notes.every((x) => x.right) ? "right" : "wrong") : "");
      tr.dataset.line = line;
      tr.appendChild(el("td", "", String(line)));
      tr.appendChild(el("td", "", text));
      tr.appendChild(el("td", "", notes.map((x) => (x.right ? "✓ " : "✗ ") + x.text).join("; ")));
      table.appendChild(tr);
    });
    logDiv.appendChild(table);
  }
})();
