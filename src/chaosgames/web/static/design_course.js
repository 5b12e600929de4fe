// The course grid of /design/chaos-cruisers: tiles laid and lifted by click, tap or Space;
// gates dragged onto tiles (or picked, then placed; or S, M, C, A at the cursor). Each tile
// is the piecepack's 2x2 squares; tile (x, y) covers squares (2x, 2y)..(2x+1, 2y+1), y up.
"use strict";

(() => {
  const svg = document.getElementById("course-grid");
  const wrap = svg.parentElement;
  const callout = document.getElementById("callout");
  const NS = "http://www.w3.org/2000/svg";
  const T = 40;
  const SYMBOL = { sun: "\u2600", moon: "\u263e", crown: "\u265b", arms: "\u2694" };
  const KEYS = { s: "sun", m: "moon", c: "crown", a: "arms" };
  let course = { name: "my course", tiles: [], gates: {} };
  let box = { x0: 0, x1: 11, y0: 0, y1: 8 };
  let cursor = [0, 0];
  let armed = null;
  let drag = null;
  let swallowClick = false;
  let marks = { tiles: new Set(), gates: new Set(), problem: null };
  const key = (t) => `${t[0]},${t[1]}`;
  const nameInput = document.getElementById("design-name");

  function node(tag, attrs, text) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text) n.textContent = text;
    return n;
  }
  const laid = (t) => course.tiles.some((u) => u[0] === t[0] && u[1] === t[1]);
  const gateAt = (t) => Object.keys(course.gates).find((g) => key(course.gates[g]) === key(t));
  const px = (tx) => (tx - box.x0) * T;
  const py = (ty) => (box.y1 - ty) * T;

  function fit() {
    const xs = course.tiles.map((t) => t[0]).concat(Object.values(course.gates).map((t) => t[0]));
    const ys = course.tiles.map((t) => t[1]).concat(Object.values(course.gates).map((t) => t[1]));
    box = {
      x0: Math.min(0, ...xs.map((x) => x - 1)), x1: Math.max(11, ...xs.map((x) => x + 1)),
      y0: Math.min(0, ...ys.map((y) => y - 1)), y1: Math.max(8, ...ys.map((y) => y + 1)),
    };
  }

  function draw() {
    fit();
    const w = (box.x1 - box.x0 + 1) * T, h = (box.y1 - box.y0 + 1) * T;
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.replaceChildren();
    for (let ty = box.y1; ty >= box.y0; ty--) {
      for (let tx = box.x0; tx <= box.x1; tx++) {
        const t = [tx, ty];
        const on = laid(t);
        const g = node("g", { "data-tile": key(t), class: "cell" + (on ? " laid" : "") + (marks.tiles.has(key(t)) ? " marked" : "") });
        g.append(node("rect", { x: px(tx) + 1, y: py(ty) + 1, width: T - 2, height: T - 2, rx: 3 }));
        if (on) {
          g.append(node("path", { d: `M${px(tx) + T / 2} ${py(ty) + 3}v${T - 6}M${px(tx) + 3} ${py(ty) + T / 2}h${T - 6}`, class: "squares" }));
        }
        g.append(node("title", {}, `Tile ${tx}, ${ty}${on ? " (laid)" : ""}`));
        svg.append(g);
      }
    }
    for (const [gate, t] of Object.entries(course.gates)) {
      const g = node("g", { "data-gate": gate, class: "gate-marker" + (marks.gates.has(gate) ? " marked" : "") });
      g.append(node("circle", { cx: px(t[0]) + T / 2, cy: py(t[1]) + T / 2, r: T * 0.34 }));
      g.append(node("text", { x: px(t[0]) + T / 2, y: py(t[1]) + T / 2 + 6, "text-anchor": "middle" }, SYMBOL[gate] || gate));
      g.append(node("title", {}, `${gate} gate on tile ${key(t)}: drag it to move it`));
      svg.append(g);
    }
    svg.append(node("rect", { class: "grid-cursor", x: px(cursor[0]) + 2, y: py(cursor[1]) + 2, width: T - 4, height: T - 4 }));
    for (const b of document.querySelectorAll(".gate-button")) {
      b.setAttribute("aria-pressed", String(b.dataset.gate === armed));
      b.classList.toggle("marked", marks.gates.has(b.dataset.gate));
      b.classList.toggle("placed", b.dataset.gate in course.gates);
    }
    announce();
    placeCallout();
  }

  function announce() {
    const g = gateAt(cursor);
    document.getElementById("grid-cursor").textContent =
      `Cursor on tile ${key(cursor)}: ${laid(cursor) ? "laid" : "empty"}${g ? `, ${g} gate` : ""}` +
      `${armed ? `. Placing the ${armed} gate: choose a tile.` : ""} · ${course.tiles.length} of 24 tiles.`;
  }

  function placeCallout() {
    const p = marks.problem;
    callout.hidden = !p;
    if (!p) return;
    callout.textContent = p.message.replace(/^Option '\w+': /, "");
    const first = svg.querySelector(".marked");
    const wrapBox = wrap.getBoundingClientRect();
    if (first) {
      const r = first.getBoundingClientRect();
      // Just below the place (it must not hide it), or above it when below is off the grid.
      const below = r.bottom - wrapBox.top + 4;
      const fits = below + callout.offsetHeight <= wrapBox.height + 60;
      const top = fits ? below : r.top - wrapBox.top - callout.offsetHeight - 4;
      callout.style.top = `${Math.max(0, top)}px`;
      callout.style.left = `${Math.max(0, Math.min(r.left - wrapBox.left - 20, wrapBox.width - 240))}px`;
    } else {
      callout.style.top = "0px";
      callout.style.left = "0px";
    }
  }

  // -- changes (each one through the history) ------------------------------------------------
  function edit(fn) {
    const next = JSON.parse(JSON.stringify(course));
    fn(next);
    cgDesign.change(next);
  }
  function toggleTile(t) {
    edit((c) => {
      if (laid(t)) c.tiles = c.tiles.filter((u) => key(u) !== key(t));
      else c.tiles.push([t[0], t[1]]);
    });
  }
  function putGate(gate, t) {
    edit((c) => { c.gates[gate] = [t[0], t[1]]; });
    armed = null;
  }
  function tileAtPoint(x, y) {
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(x, y).matrixTransform(m.inverse());
    const tx = Math.floor(p.x / T) + box.x0, ty = box.y1 - Math.floor(p.y / T);
    if (tx < box.x0 || tx > box.x1 || ty < box.y0 || ty > box.y1) return null;
    return [tx, ty];
  }

  // -- mouse and finger ------------------------------------------------------------------
  function startDrag(gate, event) {
    drag = { gate, x: event.clientX, y: event.clientY, moved: false, from: event.currentTarget };
    event.currentTarget.setPointerCapture(event.pointerId);
  }
  function moveDrag(event) {
    if (!drag) return;
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) drag.moved = true;
    for (const n of svg.querySelectorAll(".cell.hover")) n.classList.remove("hover");
    const t = drag.moved && tileAtPoint(event.clientX, event.clientY);
    if (t) {
      const cell = svg.querySelector(`[data-tile="${key(t)}"]`);
      if (cell) cell.classList.add("hover");
    }
  }
  function endDrag(event) {
    if (!drag) return false;
    const d = drag;
    drag = null;
    const t = d.moved && tileAtPoint(event.clientX, event.clientY);
    if (t) {
      if (d.from) {
        // The tray button's own click follows this pointerup: it must not pick the gate up.
        swallowClick = true;
        setTimeout(() => { swallowClick = false; }, 0);
      }
      cursor = t;
      putGate(d.gate, t);
      return true;
    }
    return false;
  }
  svg.addEventListener("pointerdown", (event) => {
    const marker = event.target.closest("[data-gate]");
    if (marker) {
      event.preventDefault();
      drag = { gate: marker.dataset.gate, x: event.clientX, y: event.clientY, moved: false };
      svg.setPointerCapture(event.pointerId);
    }
  });
  // A finger on a gate drags it rather than scrolling the page (touch-action does not reach
  // inside an SVG picture).
  svg.addEventListener("touchstart", (event) => {
    if (event.target.closest("[data-gate]")) event.preventDefault();
  }, { passive: false });
  svg.addEventListener("pointermove", moveDrag);
  svg.addEventListener("pointerup", (event) => {
    const dragged = drag;
    if (endDrag(event)) return;
    const t = tileAtPoint(event.clientX, event.clientY);
    if (!t) return;
    cursor = t;
    if (dragged && !armed) armed = dragged.gate; // a gate tapped, not dragged: pick it up
    else if (armed) putGate(armed, t);
    else toggleTile(t);
    draw();
  });
  for (const button of document.querySelectorAll(".gate-button")) {
    button.addEventListener("pointerdown", (event) => startDrag(button.dataset.gate, event));
    button.addEventListener("pointermove", moveDrag);
    button.addEventListener("pointerup", endDrag);
    button.addEventListener("click", () => {
      if (swallowClick) { swallowClick = false; return; }
      armed = armed === button.dataset.gate ? null : button.dataset.gate;
      draw();
    });
  }

  // -- keyboard --------------------------------------------------------------------------
  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  svg.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const step = STEPS[event.key];
    const k = event.key.toLowerCase();
    if (step) {
      cursor = [Math.min(box.x1, Math.max(box.x0, cursor[0] + step[0])), Math.min(box.y1, Math.max(box.y0, cursor[1] + step[1]))];
      draw();
    } else if (event.key === " " || event.key === "Enter") {
      if (armed) putGate(armed, cursor);
      else toggleTile(cursor);
    } else if (KEYS[k]) {
      putGate(KEYS[k], cursor);
    } else if ((event.key === "Delete" || event.key === "Backspace") && laid(cursor)) {
      toggleTile(cursor);
    } else if (event.key === "Escape") {
      armed = null;
      draw();
    } else return;
    event.preventDefault();
  });
  window.addEventListener("resize", placeCallout);

  // -- what the shared designer asks of an editor ----------------------------------------
  function read(doc, name) {
    if (!doc || typeof doc !== "object" || !Array.isArray(doc.tiles)) throw new Error("a course has 'tiles' and 'gates'");
    return { name: name || doc.name || "my course", tiles: doc.tiles.map((t) => [t[0], t[1]]), gates: { ...(doc.gates || {}) } };
  }
  cgDesign.start({
    get: () => ({ ...course, name: nameInput.value }),
    set(value) {
      course = JSON.parse(JSON.stringify(value));
      nameInput.value = course.name;
      draw();
    },
    value: () => ({ name: nameInput.value.trim() || "my course", tiles: course.tiles, gates: course.gates }),
    name: () => nameInput.value.trim(),
    read,
    empty: () => ({ name: nameInput.value || "my course", tiles: [], gates: {} }),
    initial: () => ({ name: "my course", tiles: [], gates: {} }),
    mark(problems) {
      marks = { tiles: new Set(), gates: new Set(), problem: problems[0] || null };
      for (const p of problems) {
        for (const place of p.places) {
          if (place.startsWith("tile:")) {
            const [x, y] = place.slice(5).split(",").map(Number);
            marks.tiles.add(key([Math.floor(x / 2), Math.floor(y / 2)]));
          } else if (place.startsWith("gate:")) marks.gates.add(place.slice(5));
        }
      }
      draw();
    },
  });
})();
