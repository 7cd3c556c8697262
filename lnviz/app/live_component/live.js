// lnviz live control: a range input that switches the page's Plotly charts between
// states computed on the server in advance (one frame per grid value), in the browser,
// while the visitor drags; on release (or a pause after arrow keys) it sends the value
// once. See lnviz/app/live.py for the design.
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

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let ctl = CONTROLLERS.get(parentElement);
  if (!ctl) {
    ctl = create(parentElement);
    CONTROLLERS.set(parentElement, ctl);
  }
  ctl.update(data, (i) => setTriggerValue("released", i));
}
