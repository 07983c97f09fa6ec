// Kurier's board in SVG: any number of files and ranks, coordinates,
// highlights, and a glyph for every piece type of any variant, drawn
// here: the piece's letter on a token (a double ring for the king), and
// around it marks of how it moves, taken from its move description
// (a line for a slide, a short line with a bar for a slide of limited
// range, a dot for a leap, farther out the longer the leap; hollow when
// the move may not capture, a cross when it only captures).
"use strict";

const KurierBoard = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SQUARE = 100;
  const MARGIN = 34;

  function element(name, attributes, parent) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attributes || {})) {
      node.setAttribute(key, value);
    }
    if (parent) parent.appendChild(node);
    return node;
  }

  // "e2" <-> {file: 4, rank: 1}, as docs/RULES.md names squares.
  function squareName(file, rank) {
    return String.fromCharCode(97 + file) + String(rank + 1);
  }

  function parseSquare(name) {
    return { file: name.charCodeAt(0) - 97, rank: Number(name.slice(1)) - 1 };
  }

  // The piece on square `index` of a snapshot's board text.
  function pieceAt(board, index) {
    const c = board[index];
    if (!c || c === ".") return null;
    const upper = c.toUpperCase();
    return { letter: upper, white: c === upper };
  }

  function pieceInfo(variant, letter) {
    return variant.pieces.find((p) => p.letter === letter) || null;
  }

  // The marks of one move part around a token, in screen directions.
  function moveMarks(group, part, white, flipped) {
    if (part.initial) return;
    const turn = (white ? 1 : -1) * (flipped ? -1 : 1);
    const onlyQuiet = part.quiet && !part.capture;
    const onlyCapture = part.capture && !part.quiet;
    for (const [dx, dy] of part.steps) {
      const sx = dx * turn;
      const sy = -dy * turn;
      const length = Math.hypot(sx, sy);
      const ux = sx / length;
      const uy = sy / length;
      const at = (r) => [ux * r, uy * r];
      if (part.motion === "leap") {
        const reach = Math.max(Math.abs(dx), Math.abs(dy));
        const [x, y] = at(41 + 2.6 * reach);
        if (onlyCapture) {
          const d = 2.6;
          element("path", {
            d: `M${x - d},${y - d}L${x + d},${y + d}M${x - d},${y + d}L${x + d},${y - d}`,
            class: "mark",
          }, group);
        } else {
          element("circle", {
            cx: x, cy: y, r: 2.7,
            class: onlyQuiet ? "mark hollow" : "mark dot",
          }, group);
        }
      } else {
        const end = part.motion === "slide" && part.range > 0 ? 45.5 : 49;
        const [x1, y1] = at(40.5);
        const [x2, y2] = at(end);
        const line = element("line", { x1, y1, x2, y2, class: "mark line" }, group);
        if (onlyQuiet || part.motion === "bent") line.classList.add("dashed");
        if (end < 49) {
          const [px, py] = [-uy * 3, ux * 3];
          element("line", {
            x1: x2 - px, y1: y2 - py, x2: x2 + px, y2: y2 + py, class: "mark line",
          }, group);
        }
      }
    }
  }

  // A piece's glyph, centred on (0, 0) of a square of side 100.
  function glyph(parent, variant, letter, white, flipped) {
    const info = pieceInfo(variant, letter);
    const group = element("g", { class: white ? "glyph white" : "glyph black" }, parent);
    if (info) {
      for (const part of info.moves) moveMarks(group, part, white, flipped);
    }
    const pawn = info && info.pawn;
    element("circle", { r: pawn ? 31 : 38, class: "token" }, group);
    if (info && info.royal) element("circle", { r: 32, class: "ring" }, group);
    const text = element("text", { class: pawn ? "letter small" : "letter", y: 1 }, group);
    text.textContent = letter;
    const title = element("title", {}, group);
    title.textContent = `${white ? "White" : "Black"} ${info ? info.name : letter}` +
      (info ? ` (${info.betza})` : "");
    return group;
  }

  // A stand-alone glyph (promotion choices).
  function glyphSvg(variant, letter, white) {
    const svg = element("svg", { viewBox: "-50 -50 100 100", class: "glyph-icon" });
    glyph(svg, variant, letter, white, false);
    return svg;
  }

  class Board {
    // `onSquare(name)` is called with each clicked square.
    constructor(container, onSquare) {
      this.container = container;
      this.onSquare = onSquare;
      this.flipped = false;
      container.addEventListener("click", (event) => {
        const square = event.target.closest("[data-square]");
        if (square && this.onSquare) this.onSquare(square.dataset.square);
      });
    }

    // Screen position of a square's top-left corner.
    corner(file, rank, files, ranks) {
      const column = this.flipped ? files - 1 - file : file;
      const row = this.flipped ? rank : ranks - 1 - rank;
      return [MARGIN + column * SQUARE, row * SQUARE];
    }

    // Draws `state`: {variant, board, lastMove: {from, to}, check,
    // selected, targets: [{to, capture}]}.
    draw(state) {
      const { variant } = state;
      const files = variant.files;
      const ranks = variant.ranks;
      const width = MARGIN + files * SQUARE;
      const height = ranks * SQUARE + MARGIN;
      const svg = element("svg", {
        viewBox: `0 0 ${width} ${height}`,
        class: "board-svg",
        "data-files": files,
        "data-ranks": ranks,
      });
      const marked = new Map();
      if (state.lastMove) {
        marked.set(state.lastMove.from, "last");
        marked.set(state.lastMove.to, "last");
      }
      if (state.selected) marked.set(state.selected, "selected");
      for (let rank = 0; rank < ranks; rank++) {
        for (let file = 0; file < files; file++) {
          const name = squareName(file, rank);
          const [x, y] = this.corner(file, rank, files, ranks);
          const shade = (file + rank) % 2 === 0 ? "dark" : "light";
          const rect = element("rect", {
            x, y, width: SQUARE, height: SQUARE,
            class: `square ${shade}`, "data-square": name,
          }, svg);
          if (marked.has(name)) rect.classList.add(marked.get(name));
          if (state.check === name) {
            element("circle", {
              cx: x + SQUARE / 2, cy: y + SQUARE / 2, r: 48, class: "check",
            }, svg);
          }
        }
      }
      for (let file = 0; file < files; file++) {
        const [x] = this.corner(file, 0, files, ranks);
        const label = element("text", {
          x: x + SQUARE / 2, y: ranks * SQUARE + MARGIN * 0.72, class: "coordinate",
        }, svg);
        label.textContent = String.fromCharCode(97 + file);
      }
      for (let rank = 0; rank < ranks; rank++) {
        const [, y] = this.corner(0, rank, files, ranks);
        const label = element("text", {
          x: MARGIN / 2, y: y + SQUARE / 2 + 9, class: "coordinate",
        }, svg);
        label.textContent = String(rank + 1);
      }
      const board = state.board || "";
      for (let index = 0; index < files * ranks; index++) {
        const piece = pieceAt(board, index);
        if (!piece) continue;
        const file = index % files;
        const rank = Math.floor(index / files);
        const [x, y] = this.corner(file, rank, files, ranks);
        const holder = element("g", {
          transform: `translate(${x + SQUARE / 2},${y + SQUARE / 2})`,
          class: "piece",
          "data-on": squareName(file, rank),
          "data-piece": board[index],
        }, svg);
        glyph(holder, variant, piece.letter, piece.white, this.flipped);
      }
      for (const target of state.targets || []) {
        const { file, rank } = parseSquare(target.to);
        const [x, y] = this.corner(file, rank, files, ranks);
        element("circle", {
          cx: x + SQUARE / 2, cy: y + SQUARE / 2,
          r: target.capture ? 45 : 13,
          class: target.capture ? "target capture" : "target",
          "data-target": target.to,
        }, svg);
      }
      this.container.replaceChildren(svg);
    }
  }

  // The evaluation graph of a replayed game: the score each side gave
  // for its moves, both from White's side (clipped to +-10 pawns, mates
  // at the edge), one line per side, the current ply marked; `onPick(ply)`
  // gets the ply clicked.
  function drawGraph(container, plies, current, onPick) {
    const width = 600;
    const height = 140;
    const clip = 1000;
    const svg = element("svg", {
      viewBox: `0 0 ${width} ${height}`, class: "graph-svg", preserveAspectRatio: "none",
    });
    const count = plies.length;
    const x = (ply) => (count === 0 ? 0 : (ply / count) * width);
    const y = (cp) => height / 2 - (Math.max(-clip, Math.min(clip, cp)) / clip) * (height / 2 - 6);
    element("rect", { x: 0, y: 0, width, height, class: "graph-back" }, svg);
    element("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "graph-zero" }, svg);
    for (const parity of [0, 1]) {
      const points = [];
      plies.forEach((ply, index) => {
        const score = ply.move.score;
        if (index % 2 !== parity || !score) return;
        const cp = "cp" in score ? score.cp : Math.sign(score.mate) * clip;
        points.push(`${x(index + 1).toFixed(1)},${y(cp).toFixed(1)}`);
      });
      if (points.length > 0) {
        const line = element("polyline", {
          points: points.join(" "), class: parity === 0 ? "graph-line first" : "graph-line second",
        }, svg);
        // After the first ply the other side is to move.
        const firstMoverWhite = plies[0].after.side_to_move === "black";
        const white = (parity === 0) === firstMoverWhite;
        element("title", {}, line).textContent =
          `${white ? "White" : "Black"}'s scores of its moves, from White's side`;
      }
    }
    element("line", {
      x1: x(current), y1: 0, x2: x(current), y2: height, class: "graph-now",
    }, svg);
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      const ply = Math.round(((event.clientX - box.left) / box.width) * count);
      onPick(Math.max(0, Math.min(count, ply)));
    });
    container.replaceChildren(svg);
  }

  return { Board, glyphSvg, drawGraph, squareName, parseSquare, pieceAt };
})();
