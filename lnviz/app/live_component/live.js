// lnviz live control: a range input that switches the page's Plotly charts between
// states computed on the server in advance (one frame per grid value), in the browser,
// while the visitor drags; on release (or a pause after arrow keys) it sends the value
// once. See lnviz/app/live.py for the design. The point mode (data.mode === "point",
// lnviz.app.live.live_point) drags a point of a chart in the plane: see createPoint.
const CONTROLLERS = new WeakMap(); // parentElement -> controller

// The frames arrive as an element of their own (lnviz.app.live._send_frames), sent again
// only when they change, as bytes: the UTF-8 JSON {"frames_id": ..., "mode": "frames",
// "charts": [...]} with frames_id first. The control finds them by frames_id. Shared
// through window in case the page holds more than one copy of this module.
const SHARED = (window.__lnvizLive = window.__lnvizLive || { frames: new Map(), waiting: new Set() });
const KEEP_FRAMES = 16; // frame sets kept (a page has at most a few controls)

const FRAMES_ID = /^\{"frames_id":"([0-9a-f]+)"/;

function framesArrived(bytes) {
  const decoder = new TextDecoder();
  const head = FRAMES_ID.exec(decoder.decode(bytes.subarray(0, 64)));
  if (!head || !SHARED.frames.has(head[1])) {
    const sent = JSON.parse(decoder.decode(bytes)); // a set not seen before: parse it once
    SHARED.frames.set(sent.frames_id, sent.charts);
    while (SHARED.frames.size > KEEP_FRAMES) SHARED.frames.delete(SHARED.frames.keys().next().value);
  }
  for (const ctl of [...SHARED.waiting]) attachFrames(ctl);
}

// Give ctl the frames of ctl.data (prepared for Plotly), or an empty set until they arrive.
// data-ready on the control says which (tests wait for it).
function attachFrames(ctl) {
  const raw = SHARED.frames.get(ctl.data.frames_id);
  if (!raw) {
    ctl.charts = [];
    SHARED.waiting.add(ctl);
    ctl.wrap.dataset.ready = "0";
    return;
  }
  SHARED.waiting.delete(ctl);
  ctl.charts = raw.map((c) => prepare(c, ctl.states));
  ctl.wrap.dataset.ready = "1";
}

// Frames on demand (lnviz/app/live.py): the server sends a control's frames once this
// visitor has asked for them. Asked when the visitor is about to use the control (pointer
// over it, focus, a press), once per state whose frames have not arrived; after the first
// ask the server sends the frames of every new state by itself.
function wantFrames(ctl) {
  if (!ctl.data || !ctl.ask) return;
  const id = ctl.data.frames_id;
  if (SHARED.frames.has(id) || ctl.asked === id) return;
  ctl.asked = id;
  ctl.wrap.dataset.asked = String(Number(ctl.wrap.dataset.asked || 0) + 1);
  ctl.ask();
}

function askOnIntent(ctl, el) {
  const want = () => wantFrames(ctl);
  for (const type of ["pointerenter", "pointerdown", "focusin"]) {
    el.addEventListener(type, want, { passive: true });
  }
}

function decode(value) {
  if (value && typeof value === "object" && !Array.isArray(value) && "f4" in value) {
    const bin = atob(value.f4);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Float32Array(bytes.buffer);
  }
  return value;
}

// Per frame, one Plotly.update(gd, data, layout, traces) argument set, and the same trace
// attributes as one object per trace for Plotly.animate.
function prepare(chart, n) {
  const position = new Map(chart.traces.map((t, i) => [t, i]));
  const frames = [];
  for (let k = 0; k < n; k++) {
    const data = {};
    for (const d of chart.data) {
      if (!data[d.attr]) data[d.attr] = new Array(chart.traces.length).fill(undefined);
      data[d.attr][position.get(d.trace)] = decode(d.values[k]);
    }
    const layout = {};
    for (const l of chart.layout) layout[l.path] = decode(l.values[k]);
    const traces = chart.traces.map((_, pos) => {
      const one = {};
      for (const attr of Object.keys(data)) if (data[attr][pos] !== undefined) one[attr] = data[attr][pos];
      return one;
    });
    frames.push({ data, layout, traces });
  }
  return { key: chart.key, traces: chart.traces, frames };
}

function chartElement(key) {
  return document.querySelector(`.st-key-${CSS.escape(key)} .js-plotly-plot`);
}

function onScreen(el) {
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
}

// --- Frames while dragging ------------------------------------------------------------------
// Plotly.update recalculates and redraws a whole chart (40-55 ms a chart in Debian's
// software-rendered Chromium). While the pointer moves, a frame's trace attributes go
// through Plotly.animate without a redraw: Plotly's transition path redraws only the traces
// of the animatable types (lines, markers, bars and their texts). The rest of the frame
// (layout: titles, ranges, shapes; other trace types) follows with one Plotly.update once
// the pointer pauses (SETTLE_MS) and on release.
const SETTLE_MS = 150;
const ANIMATABLE = new Set(["scatter", "bar"]);
const NO_REDRAW = { mode: "immediate", transition: { duration: 0 }, frame: { duration: 0, redraw: false } };

// Draw frame f of `chart` on gd while dragging: "done" when all of it is drawn, "later" when
// its layout waits for the pause, "now" when a trace type cannot be animated (Plotly.update
// draws the frame now). Plotly.animate draws in its next animation frame: while one is on
// its way the chart keeps only the latest frame asked for (a loaded browser skips states
// instead of queueing them).
function quickApply(P, gd, chart, f) {
  const types = chart.traces.map((i) => (gd.data[i] && gd.data[i].type) || "scatter");
  if (!types.every((t) => ANIMATABLE.has(t))) return "now";
  const later = Object.keys(f.layout).length ? "later" : "done";
  if (!chart.traces.length) return later;
  if (chart.busy) {
    chart.next = f;
    return later;
  }
  const run = (frame) => {
    chart.busy = P.animate(gd, { data: frame.traces, traces: chart.traces }, NO_REDRAW)
      .catch(() => {})
      .then(() => {
        chart.busy = null;
        const next = chart.next;
        chart.next = null;
        if (next) run(next);
      });
  };
  run(f);
  return later;
}

// One Plotly.update of frame f: what the server would draw, and Plotly's state with it
// (after an animation on its way, which it replaces).
function fullApply(P, gd, chart, f) {
  chart.next = null;
  if (chart.busy) chart.busy.then(() => P.update(gd, f.data, f.layout, chart.traces));
  else P.update(gd, f.data, f.layout, chart.traces);
}

function drawn(gd) {
  return Boolean(gd && gd.data && gd.layout && gd.querySelector(".main-svg"));
}

// Draw frame i of every chart of ctl that is on screen (everywhere: all of them, in full).
// Charts drawn the fast way are brought up to date with Plotly once the drag pauses.
function drawFrame(ctl, i, everywhere) {
  const P = window.Plotly;
  if (!P) return false;
  clearTimeout(ctl.settleTimer);
  for (const chart of ctl.charts) {
    const gd = chartElement(chart.key);
    if (!drawn(gd)) continue;
    if (!everywhere && !onScreen(gd)) {
      ctl.stale.add(chart.key);
      continue;
    }
    const f = chart.frames[i];
    if (everywhere || quickApply(P, gd, chart, f) === "now") {
      fullApply(P, gd, chart, f);
      ctl.unsettled.delete(chart.key);
    } else {
      ctl.unsettled.add(chart.key);
    }
    ctl.stale.delete(chart.key);
  }
  if (ctl.unsettled.size) ctl.settleTimer = setTimeout(() => settle(ctl, i), SETTLE_MS);
  return true;
}

// The pause: SETTLE_MS since the pointer last moved (a coarse grid keeps one state for a
// while under a moving pointer: that is no pause).
function settle(ctl, i) {
  const rest = performance.now() - (ctl.moved_at || 0);
  if (rest < SETTLE_MS) {
    ctl.settleTimer = setTimeout(() => settle(ctl, i), SETTLE_MS - rest);
    return;
  }
  const P = window.Plotly;
  for (const chart of ctl.charts) {
    if (!ctl.unsettled.has(chart.key)) continue;
    const gd = chartElement(chart.key);
    if (P && drawn(gd)) fullApply(P, gd, chart, chart.frames[i]);
  }
  ctl.unsettled.clear();
}

// The hint: the charts follow the drag once the page's plotly.js is there. It loads with
// the page's first chart, which may come after this control on a first visit: until then
// the hint says the charts update on release, and it changes when plotly.js arrives.
function showHint(el, data) {
  clearInterval(el.waitForPlotly);
  el.textContent = window.Plotly ? data.hint : data.hint_static;
  if (window.Plotly) return;
  const started = performance.now();
  el.waitForPlotly = setInterval(() => {
    if (window.Plotly) el.textContent = data.hint;
    if (window.Plotly || performance.now() - started > 60000) clearInterval(el.waitForPlotly);
  }, 200);
}

// After a rerun: the server drew the charts at the page's state `index`, so nothing drawn
// in the browser is pending any more.
function drawnByServer(ctl, wrap, index) {
  ctl.target = index;
  ctl.shown = index;
  ctl.stale.clear();
  clearTimeout(ctl.settleTimer);
  ctl.unsettled.clear();
  wrap.dataset.shown = String(index);
  wrap.dataset.index = String(index);
}

// The control's box in `root`: a label, a row (`row`: the control's own markup), a hint.
function mount(root, className, labelTag, row) {
  const wrap = document.createElement("div");
  wrap.className = className;
  wrap.innerHTML = `
    <${labelTag} class="live-label"></${labelTag}>
    <div class="live-row">${row}</div>
    <div class="live-hint"></div>`;
  root.appendChild(wrap);
  return wrap;
}

// Draw the released state in full, after its value was sent: a chart that cannot take it
// now must not keep the value from the server, whose rerun draws every chart anyway.
function drawSafely(draw) {
  try {
    draw();
  } catch (err) {
    console.warn("lnviz live: the released state was not drawn in the browser", err);
  }
}

// A control's state: the frames it shows, the frame it aims at and the one shown, the
// charts still to draw or to settle, its timers; `own` adds what one kind needs.
function controlState(own) {
  return {
    data: null,
    charts: [],
    target: 0,
    shown: -1,
    stale: new Set(),
    unsettled: new Set(), // drawn the fast way, Plotly's update still to come
    settleTimer: 0,
    raf: 0,
    keyTimer: 0,
    send: null,
    ...own,
  };
}

function create(root) {
  const wrap = mount(root, "live", "label", `
      <input class="live-input" type="range" step="1" />
      <output class="live-value" aria-hidden="true"></output>`);
  const input = wrap.querySelector("input");
  const output = wrap.querySelector("output");
  const uid = `lnviz-live-${Math.random().toString(36).slice(2)}`;
  input.id = uid;
  wrap.querySelector("label").htmlFor = uid;

  const ctl = controlState({ pointer: false, wrap });
  askOnIntent(ctl, wrap);

  ctl.label = (i) => ctl.data.labels[i];

  ctl.show = (i, everywhere) => {
    if (!drawFrame(ctl, i, everywhere)) return;
    ctl.shown = i;
    wrap.dataset.shown = String(i);
    wrap.dataset.frames = String(Number(wrap.dataset.frames || 0) + 1);
  };

  const frame = () => {
    ctl.raf = 0;
    if (ctl.target !== ctl.shown) ctl.show(ctl.target, false);
  };

  const setValue = (i) => {
    ctl.target = i;
    output.textContent = ctl.label(i);
    if (!ctl.pointer) input.setAttribute("aria-valuetext", ctl.label(i)); // a drag: on release
    if (!ctl.raf) ctl.raf = requestAnimationFrame(frame);
  };

  const commit = () => {
    ctl.keyTimer = 0;
    const i = Number(input.value);
    input.setAttribute("aria-valuetext", ctl.label(i));
    if (i !== ctl.data.index) {
      wrap.dataset.sent = String(i);
      ctl.send(i); // first: the server's rerun overlaps the drawing below
    }
    drawSafely(() => {
      if (ctl.stale.size || ctl.unsettled.size || ctl.shown !== i) ctl.show(i, true); // in full
    });
  };

  input.addEventListener("pointerdown", () => (ctl.pointer = true));
  input.addEventListener("pointermove", () => (ctl.moved_at = performance.now()));
  input.addEventListener("input", () => setValue(Number(input.value)));
  input.addEventListener("change", () => {
    clearTimeout(ctl.keyTimer);
    ctl.keyTimer = 0;
    if (ctl.pointer) {
      ctl.pointer = false;
      commit(); // released
    } else {
      ctl.keyTimer = setTimeout(commit, 400); // arrow keys: once they pause
    }
  });
  window.addEventListener("pointerup", () => {
    if (ctl.pointer) setTimeout(() => (ctl.pointer = false), 0);
  });

  ctl.update = (data, send) => {
    ctl.send = send;
    const fresh = !ctl.data || ctl.data.frames_id !== data.frames_id;
    ctl.data = data;
    ctl.states = data.labels.length;
    if (fresh) attachFrames(ctl);
    const n = ctl.states;
    wrap.querySelector("label").textContent = data.label;
    showHint(wrap.querySelector(".live-hint"), data);
    input.min = "0";
    input.max = String(n - 1);
    input.setAttribute("aria-label", data.label);
    if (!ctl.pointer && !ctl.keyTimer) {
      // (a key pressed during a rerun keeps its value: its own commit follows)
      input.value = String(data.index);
      output.textContent = ctl.label(data.index);
      input.setAttribute("aria-valuetext", ctl.label(data.index));
      drawnByServer(ctl, wrap, data.index);
    }
  };
  return ctl;
}

// --- Point mode: drag a point of a chart in the plane ---------------------------------------
// The states are a lattice xs × ys (state k = (xs[k % nx], ys[k // nx])). A press within
// GRAB_PX of the point (trace data.trace of chart data.chart) starts a drag: the pointer
// is turned into data coordinates from the chart's public figure (plotMap), snapped to the lattice, and that state's frame is applied once per animation
// frame. Presses elsewhere on the chart are left to Plotly (zoom, pan, hover), and a press
// on the point never reaches Plotly's drag layer. Nothing is sent until the release.
const GRAB_PX = 22;

// Data coordinates <-> client pixels on gd, from its public figure: the margins, the axis
// ranges (Plotly writes an autoranged or constrained range back into gd.layout) and, for an
// axis tied to the other by scaleanchor, one scale for both, the plot centred in its area.
// The figure's margins are planned to hold its labels (lnviz/figures/_margins.py), so
// Plotly draws the plot area where its layout says.
function plotMap(gd) {
  const svg = gd.querySelector(".main-svg");
  const L = gd.layout;
  const xr = L && L.xaxis && L.xaxis.range;
  const yr = L && L.yaxis && L.yaxis.range;
  if (!svg || !xr || !yr) return null;
  const r = svg.getBoundingClientRect();
  const m = { l: 80, r: 80, t: 100, b: 80, ...(L.margin || {}) }; // Plotly's defaults
  const [w, h] = [r.width - m.l - m.r, r.height - m.t - m.b];
  let [sx, sy] = [w / (xr[1] - xr[0]), h / (yr[1] - yr[0])];
  if (L.yaxis.scaleanchor === "x" || L.xaxis.scaleanchor === "y") sx = sy = Math.min(sx, sy);
  const [cx, cy] = [r.left + m.l + w / 2, r.top + m.t + h / 2];
  const [mx, my] = [(xr[0] + xr[1]) / 2, (yr[0] + yr[1]) / 2];
  return {
    toPx: ([x, y]) => [cx + (x - mx) * sx, cy - (y - my) * sy],
    toData: (px, py) => [mx + (px - cx) / sx, my - (py - cy) / sy],
  };
}

const GRAB_STYLE = ".lnviz-live-grab, .lnviz-live-grab * { cursor: grab !important; }";

function grabCursor(gd, on) {
  if (on && !document.getElementById("lnviz-live-grab")) {
    const style = Object.assign(document.createElement("style"), { id: "lnviz-live-grab", textContent: GRAB_STYLE });
    document.head.appendChild(style);
  }
  gd.classList.toggle("lnviz-live-grab", on);
}

function number(v) {
  return String(Number(v.toFixed(10))).replace("-", "\u2212");
}

function createPoint(root) {
  const wrap = mount(root, "live live-point", "div", `
      <div class="live-pad" tabindex="0" role="group">
        <output class="live-value" aria-hidden="true"></output>
        <span class="live-keys" aria-hidden="true">\u2190 \u2191 \u2192 \u2193</span>
      </div>
      <span class="live-said" role="status"></span>`);
  const pad = wrap.querySelector(".live-pad");
  const output = wrap.querySelector("output");
  const said = wrap.querySelector(".live-said"); // read out once per release, not per frame
  const ctl = controlState({
    drag: null, // { pointerId, dx, dy } while the point is held
    moved: false, // a lattice state was shown since the last commit
    wrap,
  });
  askOnIntent(ctl, wrap);
  // the point is dragged on its chart: the pointer over that chart is an intent too
  document.addEventListener("pointerover", (e) => {
    const gd = ctl.data && chartElement(ctl.data.chart);
    if (gd && e.target instanceof Node && gd.contains(e.target)) wantFrames(ctl);
  }, { capture: true, passive: true });
  const plotly = () => window.Plotly;
  const nx = () => ctl.data.xs.length;
  const ny = () => ctl.data.ys.length;
  const point = (k) => [ctl.data.xs[k % nx()], ctl.data.ys[Math.floor(k / nx())]];
  const label = (k) => {
    const [a, b] = point(k);
    return `${ctl.data.symbol} = (${number(a)}, ${number(b)})`;
  };
  const snap = (values, v) => {
    if (values.length < 2) return 0;
    const k = Math.round((v - values[0]) / (values[1] - values[0]));
    return Math.min(values.length - 1, Math.max(0, k));
  };

  const show = (k, everywhere) => {
    if (!drawFrame(ctl, k, everywhere)) return;
    ctl.shown = k;
    ctl.moved = true;
    wrap.dataset.shown = String(k);
    wrap.dataset.frames = String(Number(wrap.dataset.frames || 0) + 1);
  };

  const frame = () => {
    ctl.raf = 0;
    if (ctl.target !== ctl.shown) show(ctl.target, false);
  };

  const setTarget = (k) => {
    ctl.target = k;
    output.textContent = label(k);
    if (!ctl.raf) ctl.raf = requestAnimationFrame(frame);
  };

  const commit = () => {
    ctl.keyTimer = 0;
    const k = ctl.target;
    // the page's point may lie between lattice points: once a lattice state was shown,
    // even the page's own state is sent, so that the page shows what the chart showed
    const [a, b] = point(k);
    const off = ctl.moved && (a !== ctl.data.value[0] || b !== ctl.data.value[1]);
    ctl.moved = false;
    said.textContent = label(k);
    if (k !== ctl.data.index || off) {
      wrap.dataset.sent = String(k);
      ctl.send(k); // first: the server's rerun overlaps the drawing below
    }
    drawSafely(() => {
      if (ctl.stale.size || ctl.unsettled.size || ctl.shown !== k) show(k, true);
    });
  };

  // where the point is drawn now, in client pixels (null when the chart is not ready): the
  // lattice state shown since the last rerun, or the page's point
  const pointAt = (gd) => {
    const map = plotMap(gd);
    return map ? map.toPx(ctl.moved ? point(ctl.shown) : ctl.data.value) : null;
  };

  const chart = () => (ctl.data && plotly() ? chartElement(ctl.data.chart) : null);
  const alive = () => {
    if (wrap.isConnected) return true;
    for (const [type, fn] of listeners) document.removeEventListener(type, fn, true);
    return false;
  };

  const onDown = (e) => {
    if (!alive() || e.button !== 0 || ctl.drag) return;
    const gd = chart();
    if (!gd || !gd.contains(e.target)) return;
    const at = pointAt(gd);
    if (!at || Math.hypot(e.clientX - at[0], e.clientY - at[1]) > GRAB_PX) return;
    e.preventDefault(); // no compatibility mouse events: Plotly's zoom and pan stay still
    e.stopPropagation();
    clearTimeout(ctl.keyTimer);
    ctl.keyTimer = 0;
    ctl.drag = { pointerId: e.pointerId, dx: e.clientX - at[0], dy: e.clientY - at[1] };
    ctl.target = ctl.shown;
    wrap.dataset.dragging = "true";
    pad.focus({ preventScroll: true });
  };
  const onMove = (e) => {
    if (!alive()) return;
    const gd = chart();
    if (!ctl.drag) {
      // a grab cursor over the point, Plotly's own elsewhere
      if (gd) {
        const at = gd.contains(e.target) ? pointAt(gd) : null;
        grabCursor(gd, Boolean(at && Math.hypot(e.clientX - at[0], e.clientY - at[1]) <= GRAB_PX));
      }
      return;
    }
    if (e.pointerId !== ctl.drag.pointerId || !gd) return;
    ctl.moved_at = performance.now();
    e.preventDefault();
    e.stopPropagation();
    const map = plotMap(gd);
    if (!map) return;
    const [x, y] = map.toData(e.clientX - ctl.drag.dx, e.clientY - ctl.drag.dy);
    setTarget(snap(ctl.data.ys, y) * nx() + snap(ctl.data.xs, x));
  };
  const onUp = (e) => {
    if (!alive() || !ctl.drag || e.pointerId !== ctl.drag.pointerId) return;
    e.stopPropagation();
    ctl.drag = null;
    delete wrap.dataset.dragging;
    if (ctl.raf) {
      cancelAnimationFrame(ctl.raf);
      ctl.raf = 0;
    }
    commit(); // released
  };
  const swallow = (e) => {
    if (ctl.drag && alive()) {
      e.stopPropagation(); // Plotly's drag layer never sees a press on the point
      if (e.cancelable) e.preventDefault();
    }
  };
  const listeners = [
    ["pointerdown", onDown],
    ["pointermove", onMove],
    ["pointerup", onUp],
    ["pointercancel", onUp],
    ["mousedown", swallow],
    ["mousemove", swallow],
    ["touchstart", swallow],
    ["touchmove", swallow],
  ];
  for (const [type, fn] of listeners) {
    document.addEventListener(type, fn, { capture: true, passive: false });
  }

  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  pad.addEventListener("keydown", (e) => {
    const step = STEPS[e.key];
    if (!step || !ctl.data || ctl.drag) return;
    e.preventDefault();
    const k = ctl.target;
    const i = Math.min(nx() - 1, Math.max(0, (k % nx()) + step[0]));
    const j = Math.min(ny() - 1, Math.max(0, Math.floor(k / nx()) + step[1]));
    setTarget(j * nx() + i);
    clearTimeout(ctl.keyTimer);
    ctl.keyTimer = setTimeout(commit, 400); // once the keys pause
  });

  ctl.update = (data, send) => {
    ctl.send = send;
    const fresh = !ctl.data || ctl.data.frames_id !== data.frames_id;
    ctl.data = data;
    ctl.states = data.xs.length * data.ys.length;
    if (fresh) attachFrames(ctl);
    wrap.querySelector(".live-label").textContent = data.label;
    showHint(wrap.querySelector(".live-hint"), data);
    pad.setAttribute("aria-label", `${data.label}: arrow keys move ${data.symbol} one step`);
    if (!ctl.drag && !ctl.keyTimer) {
      const [a, b] = data.value; // the page's point (it may lie between lattice points)
      output.textContent = `${data.symbol} = (${number(a)}, ${number(b)})`;
      ctl.moved = false;
      drawnByServer(ctl, wrap, data.index);
    }
  };
  return ctl;
}


export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (data instanceof Uint8Array) {
    framesArrived(data); // the frames element: draws nothing
    return;
  }
  let ctl = CONTROLLERS.get(parentElement);
  if (!ctl) {
    ctl = data.mode === "point" ? createPoint(parentElement) : create(parentElement);
    CONTROLLERS.set(parentElement, ctl);
  }
  ctl.ask = () => setTriggerValue("wanted", true);
  ctl.update(data, (i) => setTriggerValue("released", i));
}
