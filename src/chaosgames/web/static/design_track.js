// The track of /design/cardboard-machines: six boards from the back of the table to the
// front, each one of the nine double-sided boards (0-8) showing its white or gray side.
// The value is the game's `boards` option: an id (white side up) or [id, "gray"].
"use strict";

(() => {
  const list = document.getElementById("track-boards");
  const nameInput = document.getElementById("design-name");
  const WHERE = ["behind the start", "the starting board", "1st in front", "2nd in front", "3rd in front", "4th in front"];
  let track = [[2, "white"], [0, "white"], [1, "white"], [3, "white"], [4, "white"], [5, "white"]];
  let marks = { places: new Set(), message: "" };

  function edit(fn) {
    const next = track.map((b) => [...b]);
    fn(next);
    cgDesign.change({ name: nameInput.value, track: next });
  }

  function slot(i) {
    const [board, side] = track[i];
    const id = `board-${i}`;
    const select = cg.el("select", { id, onchange: (e) => edit((t) => { t[i][0] = Number(e.target.value); }) },
      ...Array.from({ length: 9 }, (_, b) => cg.el("option", { value: b, selected: b === board }, `board ${b}`)));
    const sides = cg.el("select", { "aria-label": `Side of the board ${WHERE[i]}`, onchange: (e) => edit((t) => { t[i][1] = e.target.value; }) },
      cg.el("option", { value: "white", selected: side === "white" }, "white side"),
      cg.el("option", { value: "gray", selected: side === "gray" }, "gray side (dark edges)"));
    const move = (d, label) => cg.el("button", {
      type: "button", class: "small", disabled: i + d < 0 || i + d > 5, "aria-label": `${label}: ${WHERE[i]}`,
      onclick: () => edit((t) => { [t[i], t[i + d]] = [t[i + d], t[i]]; }),
    }, d > 0 ? "\u2191 forward" : "\u2193 back");
    const marked = marks.places.has(`board:${i}`);
    return cg.el("li", { class: "track-slot" + (marked ? " marked" : "") },
      cg.el("label", { class: "where", for: id }, WHERE[i]),
      select, sides, cg.el("span", { class: "board-box" }, move(1, "Move forward"), move(-1, "Move back")),
      marked ? cg.el("span", { class: "problem", role: "note" }, marks.message) : null);
  }

  function draw() {
    // Front at the top, as the table is seen from behind the cars.
    list.replaceChildren(...[5, 4, 3, 2, 1, 0].map(slot));
  }

  function read(value, name) {
    if (!Array.isArray(value) || value.length !== 6) throw new Error("a track is a list of six boards");
    return { name: name || nameInput.value, track: value.map((b) => (Array.isArray(b) ? [b[0], b[1]] : [b, "white"])) };
  }

  cgDesign.start({
    get: () => ({ name: nameInput.value, track }),
    set(value) {
      track = value.track.map((b) => [...b]);
      nameInput.value = value.name;
      draw();
    },
    value: () => track.map(([b, side]) => (side === "white" ? b : [b, side])),
    name: () => nameInput.value.trim(),
    read,
    empty: () => read(Object.values(cgDesign.data.presets)[0]),
    initial: (presets) => read(Object.values(presets)[0], nameInput.value),
    mark(problems) {
      const first = problems.find((p) => p.places.length) || null;
      marks = { places: new Set(first ? first.places : []), message: first ? first.message.replace(/^Option '\w+': /, "") : "" };
      draw();
    },
  });
})();
