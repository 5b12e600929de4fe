// The board as every page shows it (the game page and the replay viewer): the server's
// picture, the latest turn marked on it and animated into it, what is under the pointer
// said in words, texts too small to read left out, the key drawn beside it.
//
// Pictures follow chaosgames.core.story's conventions: places carry data-place, movable
// things are <g data-piece> groups (data-at for those known by their square), and both
// start with a <title> that says what they are.
"use strict";

const cgBoard = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const MOTION_MS = 380; // at most about 400 ms: the change is seen, the game not slowed
  const SMALLEST_TEXT_PX = 11;
  const still = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function picture(holder) {
    return holder.querySelector("svg");
  }

  function placeNodes(svg, place) {
    const found = [];
    for (const node of svg.querySelectorAll("[data-place]")) {
      if (node.getAttribute("data-place") === place) found.push(node);
    }
    return found;
  }

  // The user-space box around some elements of the picture.
  function userBox(nodes) {
    let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
    for (const node of nodes) {
      let b;
      try {
        b = node.getBBox();
      } catch (err) {
        continue;
      }
      x1 = Math.min(x1, b.x); y1 = Math.min(y1, b.y);
      x2 = Math.max(x2, b.x + b.width); y2 = Math.max(y2, b.y + b.height);
    }
    return x1 === Infinity ? null : { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
  }

  function outline(svg, box, cls, key, within = 1.5) {
    const rect = document.createElementNS(SVG_NS, "rect");
    const inset = Math.min(within, box.width / 4, box.height / 4);
    rect.setAttribute("x", box.x + inset);
    rect.setAttribute("y", box.y + inset);
    rect.setAttribute("width", Math.max(0, box.width - 2 * inset));
    rect.setAttribute("height", Math.max(0, box.height - 2 * inset));
    rect.setAttribute("rx", 4);
    rect.setAttribute("class", cls);
    rect.setAttribute("data-mark", key);
    rect.setAttribute("aria-hidden", "true");
    svg.append(rect);
    return rect;
  }

  // -- the latest turn, marked ----------------------------------------------------------------

  // Each place the last turn changed gets a dashed outline on a white halo, no fill: it
  // shows on any colour (a red cruiser, a dark card back) and hides nothing under it.
  function markTurn(holder, turn) {
    const svg = picture(holder);
    if (!svg) return;
    for (const old of svg.querySelectorAll(".cg-last, .cg-last-halo")) old.remove();
    for (const place of (turn && turn.places) || []) {
      const box = userBox(placeNodes(svg, place));
      if (!box) continue;
      outline(svg, box, "cg-last-halo", place, 3.5);
      outline(svg, box, "cg-last last-action", place, 3.5);
    }
  }

  // -- the change, animated ------------------------------------------------------------------

  // Where everything was (screen boxes) before the picture is replaced.
  function snapshot(holder) {
    const svg = picture(holder);
    const shot = { pieces: new Map(), places: new Map(), at: new Map() };
    if (!svg) return shot;
    for (const node of svg.querySelectorAll("[data-piece]")) {
      shot.pieces.set(node.getAttribute("data-piece"), { node, box: node.getBoundingClientRect(), html: face(node) });
    }
    for (const node of svg.querySelectorAll("[data-place]")) {
      const place = node.getAttribute("data-place");
      if (!shot.places.has(place)) shot.places.set(place, node.getBoundingClientRect());
    }
    for (const node of svg.querySelectorAll("[data-at]")) shot.at.set(node.getAttribute("data-at"), node);
    return shot;
  }

  function face(node) {
    return node.innerHTML;
  }

  function centre(rect) {
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  }

  // Screen pixels to the picture's user units (CSS transforms on SVG elements use these).
  function scaleOf(svg) {
    const ctm = svg.getScreenCTM();
    return ctm && ctm.a ? ctm.a : 1;
  }

  function slide(node, dx, dy, scale) {
    node.animate(
      [{ transform: `translate(${dx / scale}px, ${dy / scale}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: MOTION_MS, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
  }

  function land(node) {
    node.animate(
      [{ opacity: 0, transform: "translateY(-14px) scale(1.25)" }, { opacity: 1, transform: "none" }],
      { duration: MOTION_MS, easing: "ease-out" },
    );
  }

  function flip(node) {
    node.animate([{ transform: "scaleX(0.05)" }, { transform: "scaleX(1)" }], { duration: MOTION_MS, easing: "ease-out" });
  }

  function lift(svg, old, scale, holderRect) {
    // What left the board fades away where it stood.
    const ghost = old.node.cloneNode(true);
    ghost.classList.add("cg-leaving");
    ghost.removeAttribute("data-piece");
    ghost.removeAttribute("data-at");
    svg.append(ghost);
    const now = ghost.getBoundingClientRect();
    const dx = (old.box.left - now.left) / scale;
    const dy = (old.box.top - now.top) / scale;
    const anim = ghost.animate(
      [
        { opacity: 1, transform: `translate(${dx}px, ${dy}px)` },
        { opacity: 0, transform: `translate(${dx}px, ${dy - 14}px) scale(0.8)` },
      ],
      { duration: MOTION_MS, easing: "ease-in" },
    );
    anim.onfinish = () => ghost.remove();
    void holderRect;
  }

  // After the picture was replaced: things slide from where they were, new ones land, old
  // ones lift away, turned ones flip. Returns how long the motion lasts (0: none).
  // What the last change did (read by the browser tests): how many things moved and for how long.
  const lastMotion = { changes: 0, things: 0, longest: 0 };

  function animate(holder, before, turn) {
    lastMotion.changes += 1;
    lastMotion.things = 0;
    lastMotion.longest = 0;
    const svg = picture(holder);
    if (!svg || still() || (!before.pieces.size && !before.places.size)) return 0;
    const scale = scaleOf(svg);
    const handled = new Set();
    const kept = new Set();
    let moving = 0;
    for (const [from, to] of (turn && turn.moves) || []) {
      const was = before.places.get(from);
      if (!was) continue;
      for (const node of svg.querySelectorAll("[data-at]")) {
        if (node.getAttribute("data-at") !== to) continue;
        const now = node.getBoundingClientRect();
        const a = centre(was), b = centre(now);
        slide(node, a.x - b.x, a.y - b.y, scale);
        handled.add(node);
        kept.add(from);
        moving += 1;
      }
    }
    for (const node of svg.querySelectorAll("[data-piece]")) {
      if (handled.has(node)) continue;
      const id = node.getAttribute("data-piece");
      const old = before.pieces.get(id);
      if (!old) {
        const at = node.getAttribute("data-at");
        if (at === null || !kept.has(at)) land(node);
        moving += 1;
        continue;
      }
      const now = node.getBoundingClientRect();
      const dx = old.box.left - now.left, dy = old.box.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) > 1) {
        slide(node, dx, dy, scale);
        moving += 1;
      } else if (old.html !== face(node)) {
        flip(node);
        moving += 1;
      }
    }
    const now = new Set([...svg.querySelectorAll("[data-piece]")].map((n) => n.getAttribute("data-piece")));
    for (const [id, old] of before.pieces) {
      if (now.has(id)) continue;
      const at = old.node.getAttribute("data-at");
      if (at !== null && kept.has(at)) continue; // it slid to its new square
      lift(svg, old, scale);
      moving += 1;
    }
    lastMotion.things = moving;
    lastMotion.longest = Math.max(0, ...svg.getAnimations({ subtree: true }).map((a) => Number(a.effect.getTiming().duration) || 0));
    return moving ? MOTION_MS : 0;
  }

  // -- texts too small to read, and what is under the pointer ---------------------------------

  // A text the picture would draw under 11 CSS px is left out (its information is in the
  // titles and the key); zoomed, every text shows.
  function fitTexts(holder) {
    const svg = picture(holder);
    if (!svg) return;
    const scale = scaleOf(svg);
    const zoomed = holder.classList.contains("zoomed");
    for (const text of svg.querySelectorAll("text")) {
      const size = parseFloat(window.getComputedStyle(text).fontSize) || 16;
      text.classList.toggle("cg-tiny", !zoomed && size * scale < SMALLEST_TEXT_PX - 0.01);
    }
  }

  // The words for the thing at a point: the topmost piece or place with a <title>.
  function titleAt(holder, x, y) {
    for (const node of document.elementsFromPoint(x, y)) {
      if (!holder.contains(node)) continue;
      const owner = node.closest && node.closest("[data-piece], [data-place]");
      const said = owner && titleOf(owner);
      if (said) return said;
    }
    return null;
  }

  function titleOf(node) {
    const title = [...node.children].find((c) => c.tagName.toLowerCase() === "title");
    return title ? title.textContent.trim() : null;
  }

  function placeTitle(holder, place) {
    const svg = picture(holder);
    if (!svg) return null;
    for (const node of placeNodes(svg, place)) {
      const said = titleOf(node);
      if (said) return said;
    }
    return null;
  }

  // -- the key and the story, as HTML beside the board ---------------------------------------

  function legend(body, sections) {
    body.replaceChildren(
      ...sections.map((section) =>
        cg.el(
          "section",
          { class: "legend-section" },
          cg.el("h3", {}, section.title),
          cg.el(
            "ul",
            {},
            section.entries.map((entry) => {
              const swatch = entry.colour
                ? cg.el("span", { class: "swatch", "data-colour": entry.colour, "aria-hidden": "true" }, entry.symbol || "")
                : entry.symbol
                  ? cg.el("span", { class: "symbol", "aria-hidden": "true" }, entry.symbol)
                  : null;
              return cg.el("li", {}, swatch, cg.el("span", {}, entry.text));
            }),
          ),
        ),
      ),
    );
    // Colours come from the games' own palettes: set as style properties, never as markup.
    for (const swatch of body.querySelectorAll(".swatch")) swatch.style.background = swatch.dataset.colour;
  }

  function storyItems(events) {
    return events.map((e) =>
      cg.el(
        "li",
        { class: e.actor < 0 ? "chance" : "decision", "data-seq": e.seq },
        e.actor < 0 ? cg.el("span", { class: "die", "aria-hidden": "true" }, "⚄") : null,
        cg.el("span", { class: "said" }, e.text),
        " ",
        cg.el("code", {}, e.notation),
      ),
    );
  }

  return { lastMotion, SVG_NS, MOTION_MS, picture, placeNodes, userBox, outline, markTurn, snapshot, animate, fitTexts, titleAt, titleOf, placeTitle, legend, storyItems, scaleOf };
})();
