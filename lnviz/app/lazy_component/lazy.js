// lnviz lazy charts: a chart that is not near the screen is first drawn when it comes near.
//
// Streamlit draws each st.plotly_chart with Plotly.react on the graph div it mounts, and a
// chart whose figure changed is a new element (a new div, drawn from scratch). A control at
// the top of a page can change six charts, most of them below the fold, and each costs a
// software-rendered browser 60-140 ms of main thread: the visitor waited for all of them.
// Here Plotly.react (the window.Plotly that Streamlit's chart bundle sets, the one its chart
// component calls) is wrapped: the first draw of a div that is neither on screen nor within
// MARGIN_PX of it waits until the div comes within that distance (an IntersectionObserver
// on the main pane, which is what scrolls), and its promise resolves once it is drawn, so
// Streamlit's own steps after the draw (event handlers, the figure it keeps) run then, in
// the same order. A chart the page removes before it was drawn is dropped; hidden charts
// (a folded expander, another slide) wait until they are shown.
//
// window.__lnvizCharts: pending() (draws waiting), busy() (waiting or running), drawAll()
// (draw every waiting chart now: printing does this, and the browser tests before they
// read a page).
const MARGIN_PX = 200;
const CLOSEST = 0.6; // a wide 3-D chart's camera comes at most this much closer

// A 3-D scene's camera is set on the server for the narrowest screen (its layout.meta
// names that scene's width / height as lnvizCameraAspect): far enough that a phone sees
// the whole box. A wider chart has room to spare on the sides, so its camera comes closer,
// by the ratio of the two aspects (at most CLOSEST), and the box fills more of the chart.
// Plotly's perspective keeps the vertical view, so the box's height sets how close.
function fittedEye(gd, layout) {
  const meta = layout && layout.meta;
  const tuned = meta && meta.lnvizCameraAspect;
  const eye = tuned && meta.lnvizCameraEye; // the server's eye (the layout's may be fitted)
  if (!eye || !layout.scene || !(gd instanceof Element)) return null;
  const full = layout.width || gd.clientWidth;
  if (!full) return null;
  const dom = layout.scene.domain || {};
  const [x0, x1] = dom.x || [0, 1];
  const [y0, y1] = dom.y || [0, 1];
  const m = layout.margin || {};
  const width = (full - (m.l || 0) - (m.r || 0)) * (x1 - x0);
  const height = ((layout.height || gd.clientHeight) - (m.t || 0) - (m.b || 0)) * (y1 - y0);
  const scale = Math.min(1, Math.max(CLOSEST, tuned / (width / height)));
  return { x: eye.x * scale, y: eye.y * scale, z: eye.z * scale };
}

function fitCamera(gd, args) {
  const figure = args.length === 1 && args[0] && args[0].layout ? args[0] : null;
  const layout = figure ? figure.layout : args[1];
  const eye = fittedEye(gd, layout);
  if (!eye) return args;
  const camera = { ...layout.scene.camera, eye };
  const fitted = { ...layout, scene: { ...layout.scene, camera } };
  return figure ? [{ ...figure, layout: fitted }] : [args[0], fitted, ...args.slice(2)];
}

// A visitor who asks for reduced motion (prefers-reduced-motion: reduce) gets every chart
// drawn without a transition, whatever its figure asks: layout.transition is dropped
// (Plotly.react animates a change of data or axes only when the layout has one; even a
// 0 ms one takes its transition path).
function stillUnlessMotionWanted(args) {
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  const figure = args.length === 1 && args[0] && args[0].layout ? args[0] : null;
  const given = figure ? figure.layout : args[1];
  if (!reduce || !reduce.matches || !given || given.transition === undefined) return args;
  const { transition, ...layout } = given; // eslint-disable-line no-unused-vars
  return figure ? [{ ...figure, layout }] : [args[0], layout, ...args.slice(2)];
}

function install() {
  if (window.__lnvizCharts) return;
  const pending = new Map(); // graph div -> { self, react, args, resolve, reject }
  let running = 0;
  let observer = null;
  let observedRoot;

  const pane = () => document.querySelector("main");
  const box = (gd) => gd.closest(".stElementContainer") || gd;

  function near(gd) {
    const r = box(gd).getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false; // not displayed
    const root = pane();
    const top = root ? root.getBoundingClientRect().top : 0;
    const bottom = root ? root.getBoundingClientRect().bottom : window.innerHeight;
    return r.bottom >= top - MARGIN_PX && r.top <= bottom + MARGIN_PX;
  }

  function draw(gd) {
    const p = pending.get(gd);
    if (!p) return Promise.resolve();
    pending.delete(gd);
    unwatch(gd);
    if (!gd.isConnected) {
      p.resolve();
      return Promise.resolve();
    }
    running += 1;
    return Promise.resolve()
      .then(() => p.react.apply(p.self, [gd, ...p.args]))
      .then(p.resolve, p.reject)
      .finally(() => {
        running -= 1;
      });
  }

  function watch(gd) {
    const root = pane();
    if (!observer || observedRoot !== root) {
      if (observer) observer.disconnect();
      observedRoot = root;
      observer = new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (!e.isIntersecting) continue;
            for (const g of [...pending.keys()]) if (box(g) === e.target) draw(g);
          }
        },
        { root, rootMargin: `${MARGIN_PX}px 0px` }
      );
      for (const g of pending.keys()) observer.observe(box(g));
    }
    observer.observe(box(gd));
  }

  // Stop watching gd's box, unless a chart still waiting is in it too (a chart mounted
  // again in the same place before the old one was purged): observing a box twice is one
  // observation, so unobserving it for the old chart would leave the new one undrawn.
  function unwatch(gd) {
    const b = box(gd);
    if (!observer || [...pending.keys()].some((g) => box(g) === b)) return;
    observer.unobserve(b);
  }

  function wrap(P) {
    if (!P || P.__lnvizLazy || typeof P.react !== "function") return;
    P.__lnvizLazy = true;
    const react = P.react;
    const purge = P.purge;
    P.react = function (gd, ...given) {
      const args = fitCamera(gd, stillUnlessMotionWanted(given));
      // Only a chart's first draw waits: once drawn, its updates (a new width, a theme)
      // follow at once, as Streamlit expects them (deferred too, each one's finish started
      // the next, and a chart far from the screen never came to rest).
      const drawn = gd instanceof Element && gd.layout !== undefined; // Plotly's figure on it
      if (!(gd instanceof Element) || drawn || near(gd)) {
        const done = react.apply(this, [gd, ...args]);
        if (done && typeof done.then === "function" && fittedEye(gd, args[1] || (args[0] || {}).layout)) {
          done.then(() => fitWhenDrawn(P, gd)); // its width was not known before the draw
        }
        return done;
      }
      const old = pending.get(gd);
      if (old) old.resolve(); // (Streamlit waits for a draw before the next: not expected)
      return new Promise((resolve, reject) => {
        pending.set(gd, { self: this, react, args, resolve, reject });
        watch(gd);
      });
    };
    P.purge = function (gd, ...args) {
      const p = pending.get(gd);
      if (p) {
        pending.delete(gd);
        unwatch(gd);
        p.resolve();
      }
      return purge.apply(this, [gd, ...args]);
    };
    // Charts drawn (or being drawn) before this script arrived, on a first visit: fit
    // their cameras once their draw is done.
    for (const gd of document.querySelectorAll(".js-plotly-plot")) fitWhenDrawn(P, gd);
  }

  // Fit a drawn scene's camera (gd.layout is the figure Plotly drew, public; the fit is a
  // Plotly.relayout). A chart still being drawn is fitted when Plotly says it is drawn.
  // (Plotly.relayout waits for a draw still in progress.)
  function fitWhenDrawn(P, gd, tries = 0) {
    if (!gd.isConnected || tries > 600) return; // (about 10 s of frames at the most)
    const meta = gd.layout && gd.layout.meta;
    if (gd.layout === undefined) { // not drawn yet: Plotly's own event once it is
      if (typeof gd.once === "function") gd.once("plotly_afterplot", () => fitWhenDrawn(P, gd));
      else requestAnimationFrame(() => fitWhenDrawn(P, gd, tries + 1));
      return;
    }
    if (!gd.layout.scene) return;
    if (!(meta && meta.lnvizCameraAspect)) return; // not a fitted scene
    const eye = fittedEye(gd, gd.layout);
    const camera = gd.layout.scene.camera || {};
    const drawn = camera.eye || { x: 0, y: 0, z: 0 };
    const off = eye && Math.abs(eye.x - drawn.x) + Math.abs(eye.y - drawn.y) + Math.abs(eye.z - drawn.z);
    if (off > 1e-9 && typeof P.relayout === "function") P.relayout(gd, { "scene.camera.eye": eye });
  }

  window.__lnvizCharts = {
    pending: () => pending.size,
    busy: () => pending.size + running,
    drawAll: () => Promise.all([...pending.keys()].map(draw)),
  };
  window.addEventListener("beforeprint", () => window.__lnvizCharts.drawAll());

  // Streamlit's chart bundle sets window.Plotly when the first chart loads it: wrap it then
  // (or now, if it is already there).
  if (window.Plotly) {
    wrap(window.Plotly);
  } else {
    let plotly;
    Object.defineProperty(window, "Plotly", {
      configurable: true,
      enumerable: true,
      get: () => plotly,
      set: (value) => {
        plotly = value;
        wrap(value);
      },
    });
  }
}

install();

export default function () {
  install(); // (already done when the module loaded; nothing is drawn here)
}
