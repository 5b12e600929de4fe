// The game's WebSocket as the page reads it: a whole view, then patches (web/patches.py).
//
// A patch names the view it applies to (its revision and version); this keeps the last
// view the socket made and applies each patch to it, so the page gets whole views as
// before and draws them (board.js animates from the old picture to the new one). A patch
// that names another view than the one kept (a message was missed) is not applied: the
// page asks for the whole view again ({"resync": true}) and takes the next whole view.
"use strict";

const cgPatches = (() => {
  // The same tokens as web/patches.py's TOKENS: a tag up to the next tag or line end, a
  // run of text up to the next tag or line end, a lone line end.
  const TOKENS = /<[^<\n]*\n?|[^<\n]+\n?|\n/g;

  function rebuilt(old, pieces) {
    const tokens = old.match(TOKENS) || [];
    const out = [];
    for (const piece of pieces) {
      if (typeof piece === "string") {
        out.push(...(piece.match(TOKENS) || []));
      } else if (piece[0] === "n") {
        if (!(piece[1] < out.length)) throw new Error("a repeat of a token not yet written");
        out.push(out[piece[1]]);
      } else {
        if (piece[1] > tokens.length || piece[0] > piece[1]) throw new Error("a copy beyond the old text");
        out.push(...tokens.slice(piece[0], piece[1]));
      }
    }
    return out.join("");
  }

  function edit(doc, op) {
    const [kind, path] = op;
    if (!path.length) throw new Error("an edit names no field");
    let holder = doc;
    for (const key of path.slice(0, -1)) {
      holder = holder[key];
      if (holder === null || typeof holder !== "object") throw new Error("no such field");
    }
    const last = path[path.length - 1];
    if (kind === "=") holder[last] = op[2];
    else if (kind === "-") delete holder[last];
    else if (kind === "*") {
      const list = holder[last];
      if (!Array.isArray(list) || op[2] + op[3] > list.length) throw new Error("a splice beyond the list");
      list.splice(op[2], op[3], ...op[4]);
    }
    else if (kind === "~") {
      if (typeof holder[last] !== "string") throw new Error("not a text");
      holder[last] = rebuilt(holder[last], op[2]);
    } else throw new Error(`no such edit ${kind}`);
  }

  // The view `patch` makes of `view` (whose revision is `revision`), or null when it does
  // not apply to it. `view` is left as it was.
  function apply(view, revision, patch) {
    if (revision === null || patch.base !== revision || patch.from !== view.version) return null;
    try {
      const next = structuredClone(view);
      for (const op of patch.ops) edit(next, op);
      next.log = patch.log;
      next.log_from = patch.log_from;
      return next;
    } catch (err) {
      return null;
    }
  }

  // One socket's messages: `take` returns the view a message makes, or null when the page
  // must ask for the whole view (it says so with `ask` once, until a whole view comes).
  function stream(ask) {
    let view = null;
    let revision = null;
    let asked = false;
    const tests = { drop: 0, resyncs: 0 }; // read and set by the browser tests
    function take(message) {
      if (tests.drop > 0 && message.type === "patch") {
        tests.drop -= 1; // a message lost on its way
        return null;
      }
      if (message.type === "view") {
        view = message.view;
        revision = message.revision === undefined ? null : message.revision;
        asked = false;
        return view;
      }
      if (message.type !== "patch") return null;
      const next = view === null ? null : apply(view, revision, message);
      if (next === null) {
        if (!asked) {
          asked = true;
          tests.resyncs += 1;
          ask();
        }
        return null;
      }
      view = next;
      revision = message.revision;
      return view;
    }
    return { take, tests };
  }

  return { apply, rebuilt, stream };
})();
