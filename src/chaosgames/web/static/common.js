// Helpers every page uses: JSON requests with readable errors, copying links, elements.
"use strict";

const cg = (() => {
  class Problem extends Error {
    constructor(status, body) {
      super((body && body.detail) || `The server answered ${status}.`);
      this.status = status;
      this.body = body || {};
    }
  }

  async function request(method, url, { body, token, prefer } = {}) {
    const headers = { Accept: "application/json" };
    if (prefer) headers.Prefer = prefer;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch (err) {
      throw new Problem(0, { detail: "The server cannot be reached; check the connection and try again." });
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    if (!response.ok) throw new Problem(response.status, data);
    return data;
  }

  // An element with attributes and children (text children are set as text, never as HTML).
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  async function copy(text, button) {
    let done = false;
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch (err) {
      // No clipboard (an insecure origin): show the text so that it can be copied by hand.
      window.prompt("Copy this link:", text);
    }
    if (done && button) {
      const label = button.textContent;
      button.textContent = "Copied";
      setTimeout(() => { button.textContent = label; }, 1500);
    }
  }

  function show(node, visible) {
    node.hidden = !visible;
  }

  function problem(node, message) {
    node.textContent = message || "";
    node.hidden = !message;
  }

  function absolute(path) {
    return new URL(path, window.location.origin).href;
  }

  // Games created on this browser, so that their private links are not lost.
  const MINE = "chaosgames.mine";
  function remember(created) {
    const list = mine().filter((g) => g.id !== created.id);
    list.unshift({ id: created.id, title: created.title, seats: created.seats, at: Date.now() });
    try {
      localStorage.setItem(MINE, JSON.stringify(list.slice(0, 30)));
    } catch (err) { /* private browsing: nothing kept */ }
  }
  function mine() {
    try {
      const list = JSON.parse(localStorage.getItem(MINE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (err) {
      return [];
    }
  }

  // The links a new game gives: one per person's seat, and one to watch.
  function createdPanel(created) {
    const humans = created.seats.filter((s) => s.link);
    const items = created.seats.map((s) => {
      if (!s.link) return el("li", {}, `${s.name}: ${s.who} (computer)`);
      const url = absolute(s.link);
      const copyButton = el("button", { type: "button", class: "small" }, "Copy link");
      copyButton.addEventListener("click", () => copy(url, copyButton));
      return el("li", {}, `${s.name}: `, el("a", { href: s.link, class: "seat-link" }, "private link"), " ", copyButton);
    });
    const spectator = absolute(created.spectator);
    const copySpectator = el("button", { type: "button", class: "small" }, "Copy");
    copySpectator.addEventListener("click", () => copy(spectator, copySpectator));
    const panel = el(
      "div",
      {},
      el("p", {}, el("strong", {}, "Game created."), " Each person opens their own seat's link; keep yours to yourself."),
      el("ul", { class: "seat-links" }, items),
      el("p", {}, "Spectators: ", el("a", { href: created.spectator }, "watch link"), " ", copySpectator),
    );
    if (humans.length >= 1) {
      panel.append(el("p", {}, el("a", { class: "button primary play-now", href: humans[0].link }, `Play as ${humans[0].name}`)));
    }
    return panel;
  }

  return { Problem, request, el, copy, show, problem, absolute, remember, mine, createdPanel };
})();
