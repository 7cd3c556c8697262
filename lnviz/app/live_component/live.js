// lnviz live control: a range input that switches the page's Plotly charts between
// states computed on the server in advance (one frame per grid value), in the browser,
// while the visitor drags; on release (or a pause after arrow keys) it sends the value
// once. See lnviz/app/live.py for the design. The point mode (data.mode === "point",
// lnviz.app.live.live_point) drags a point of a chart in the plane: see createPoint.
const CONTROLLERS = new WeakMap(); // parentElement -> controller

function decode(value) {
  if (value && typeof value === "object" && !Array.isArray(value) && "f4" in value) {
    const bin = atob(value.f4);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Float32Array(bytes.buffer);
  }
  return value;
}

// Per frame, one Plotly.update(gd, data, layout, traces) argument set.
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
    frames.push({ data, layout });
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

function create(root) {
  const wrap = document.createElement("div");
  wrap.className = "live";
  wrap.innerHTML = `
    <label class="live-label"></label>
    <div class="live-row">
      <input class="live-input" type="range" step="1" />
      <output class="live-value" aria-hidden="true"></output>
    </div>
    <div class="live-hint"></div>`;
  root.appendChild(wrap);
  const input = wrap.querySelector("input");
  const output = wrap.querySelector("output");
  const uid = `lnviz-live-${Math.random().toString(36).slice(2)}`;
  input.id = uid;
  wrap.querySelector("label").htmlFor = uid;

  const ctl = {
    data: null,
    charts: [],
    target: 0,
    shown: -1,
    stale: new Set(),
    raf: 0,
    keyTimer: 0,
    pointer: false,
    send: null,
  };

  const plotly = () => window.Plotly; // the plotly.js that drew the page's charts

  ctl.label = (i) => ctl.data.labels[i];

  ctl.show = (i, everywhere) => {
    const P = plotly();
    if (!P) return;
    for (const chart of ctl.charts) {
      const gd = chartElement(chart.key);
      if (!gd || !gd._fullLayout) continue;
      if (!everywhere && !onScreen(gd)) {
        ctl.stale.add(chart.key);
        continue;
      }
      const f = chart.frames[i];
      P.update(gd, f.data, f.layout, chart.traces);
      ctl.stale.delete(chart.key);
    }
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
    input.setAttribute("aria-valuetext", ctl.label(i));
    if (!ctl.raf) ctl.raf = requestAnimationFrame(frame);
  };

  const commit = () => {
    ctl.keyTimer = 0;
    const i = Number(input.value);
    if (ctl.stale.size || ctl.shown !== i) ctl.show(i, true); // the charts off screen too
    if (i !== ctl.data.index) {
      wrap.dataset.sent = String(i);
      ctl.send(i);
    }
  };

  input.addEventListener("pointerdown", () => (ctl.pointer = true));
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
    const n = data.labels.length;
    if (!ctl.data || ctl.data.frames_id !== data.frames_id) {
      ctl.charts = data.charts.map((c) => prepare(c, n));
    }
    ctl.data = data;
    wrap.querySelector("label").textContent = data.label;
    wrap.querySelector(".live-hint").textContent = plotly() ? data.hint : data.hint_static;
    input.min = "0";
    input.max = String(n - 1);
    input.setAttribute("aria-label", data.label);
    if (!ctl.pointer && !ctl.keyTimer) {
      // (a key pressed during a rerun keeps its value: its own commit follows)
      input.value = String(data.index);
      output.textContent = ctl.label(data.index);
      input.setAttribute("aria-valuetext", ctl.label(data.index));
      ctl.target = data.index;
      ctl.shown = data.index; // the server drew the charts at the page's value
      ctl.stale.clear();
      wrap.dataset.shown = String(data.index);
      wrap.dataset.index = String(data.index);
    }
  };
  return ctl;
}

// --- Point mode: drag a point of a chart in the plane ---------------------------------------
// The states are a lattice xs × ys (state k = (xs[k % nx], ys[k // nx])). A press within
// GRAB_PX of the point (trace data.trace of chart data.chart) starts a drag: the pointer
// is turned into data coordinates with the chart's own axes (p2l and the plot area's
// offset), snapped to the lattice, and that state's frame is applied once per animation
// frame. Presses elsewhere on the chart are left to Plotly (zoom, pan, hover), and a press
// on the point never reaches Plotly's drag layer. Nothing is sent until the release.
const GRAB_PX = 22;

function plotArea(gd) {
  const svg = gd.querySelector(".main-svg");
  const fl = gd._fullLayout;
  if (!svg || !fl || !fl.xaxis || !fl.yaxis) return null;
  const r = svg.getBoundingClientRect();
  return { left: r.left + fl.xaxis._offset, top: r.top + fl.yaxis._offset, xa: fl.xaxis, ya: fl.yaxis };
}

function number(v) {
  return String(Number(v.toFixed(10))).replace("-", "\u2212");
}

function createPoint(root) {
  const wrap = document.createElement("div");
  wrap.className = "live live-point";
  wrap.innerHTML = `
    <div class="live-label"></div>
    <div class="live-row">
      <div class="live-pad" tabindex="0" role="group">
        <output class="live-value"></output>
        <span class="live-keys" aria-hidden="true">\u2190 \u2191 \u2192 \u2193</span>
      </div>
    </div>
    <div class="live-hint"></div>`;
  root.appendChild(wrap);
  const pad = wrap.querySelector(".live-pad");
  const output = wrap.querySelector("output");
  const ctl = {
    data: null,
    charts: [],
    target: 0,
    shown: -1,
    stale: new Set(),
    raf: 0,
    keyTimer: 0,
    drag: null, // { pointerId, dx, dy } while the point is held
    moved: false, // a lattice state was shown since the last commit
    send: null,
  };
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
    const P = plotly();
    if (!P) return;
    for (const chart of ctl.charts) {
      const gd = chartElement(chart.key);
      if (!gd || !gd._fullLayout) continue;
      if (!everywhere && !onScreen(gd)) {
        ctl.stale.add(chart.key);
        continue;
      }
      const f = chart.frames[k];
      P.update(gd, f.data, f.layout, chart.traces);
      ctl.stale.delete(chart.key);
    }
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
    if (ctl.stale.size || ctl.shown !== k) show(k, true);
    // the page's point may lie between lattice points: once a lattice state was shown,
    // even the page's own state is sent, so that the page shows what the chart showed
    const [a, b] = point(k);
    const off = ctl.moved && (a !== ctl.data.value[0] || b !== ctl.data.value[1]);
    ctl.moved = false;
    if (k !== ctl.data.index || off) {
      wrap.dataset.sent = String(k);
      ctl.send(k);
    }
  };

  // where the point is drawn now, in client pixels (null when the chart is not ready)
  const pointAt = (gd) => {
    const area = plotArea(gd);
    const t = gd._fullData && gd._fullData[ctl.data.trace];
    if (!area || !t || !t.x || !t.x.length) return null;
    return [area.left + area.xa.l2p(t.x[0]), area.top + area.ya.l2p(t.y[0])];
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
      const layer = gd && gd.contains(e.target) ? gd.querySelector(".nsewdrag") : null;
      if (layer) {
        const at = pointAt(gd);
        const near = at && Math.hypot(e.clientX - at[0], e.clientY - at[1]) <= GRAB_PX;
        layer.style.cursor = near ? "grab" : "";
      }
      return;
    }
    if (e.pointerId !== ctl.drag.pointerId || !gd) return;
    e.preventDefault();
    e.stopPropagation();
    const area = plotArea(gd);
    if (!area) return;
    const x = area.xa.p2l(e.clientX - ctl.drag.dx - area.left);
    const y = area.ya.p2l(e.clientY - ctl.drag.dy - area.top);
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
    const n = data.xs.length * data.ys.length;
    if (!ctl.data || ctl.data.frames_id !== data.frames_id) {
      ctl.charts = data.charts.map((c) => prepare(c, n));
    }
    ctl.data = data;
    wrap.querySelector(".live-label").textContent = data.label;
    wrap.querySelector(".live-hint").textContent = plotly() ? data.hint : data.hint_static;
    pad.setAttribute("aria-label", `${data.label}: arrow keys move ${data.symbol} one step`);
    if (!ctl.drag && !ctl.keyTimer) {
      const [a, b] = data.value; // the page's point (it may lie between lattice points)
      output.textContent = `${data.symbol} = (${number(a)}, ${number(b)})`;
      ctl.target = data.index;
      ctl.moved = false;
      ctl.shown = data.index; // the server drew the chart at the page's point
      ctl.stale.clear();
      wrap.dataset.shown = String(data.index);
      wrap.dataset.index = String(data.index);
    }
  };
  return ctl;
}


export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let ctl = CONTROLLERS.get(parentElement);
  if (!ctl) {
    ctl = data.mode === "point" ? createPoint(parentElement) : create(parentElement);
    CONTROLLERS.set(parentElement, ctl);
  }
  ctl.update(data, (i) => setTriggerValue("released", i));
}
