// The free-audit widget's client (issue 21): one self-contained script, served as GET /widget/:id.js with the widget's
// settings inlined, that mounts the form in a shadow root (styles cannot leak either way) where its <script> tag is,
// or in the frame page (GET /widget/:id/frame) for sites that allow no scripts. It loads nothing else from the app;
// Turnstile's own script only when the bot check is configured. Plain ES2017 kept as text: it runs on other sites as
// it is written here (no build step, no helpers a bundler might inject). Visitor and agency text is set as text, never HTML.
import type { WidgetPublicConfig } from "./rules/widgets";

const CSS = `:host{all:initial;display:block;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937}
*{box-sizing:border-box}
.card{max-width:480px;margin:0 auto;background:#fff;border:1px solid #e5e7eb;border-top:4px solid var(--accent);border-radius:14px;padding:22px;box-shadow:0 6px 24px rgba(15,23,42,.08)}
.head{display:flex;align-items:center;gap:12px;margin:0 0 16px}
.logo{max-height:44px;max-width:120px;object-fit:contain}
h2{margin:0;font-size:20px;line-height:1.25;color:#111827}
.sub{margin:4px 0 0;color:#4b5563;font-size:14px}
label{display:block;margin:0 0 12px;font-weight:600;font-size:14px}
.opt{font-weight:400;color:#6b7280}
.in{display:block;width:100%;margin-top:5px;padding:10px 12px;border:1px solid #d1d5db;border-radius:9px;font:inherit;font-weight:400;color:inherit;background:#fff}
.in:focus{outline:2px solid var(--accent);outline-offset:1px;border-color:var(--accent)}
.consent{display:flex;gap:9px;align-items:flex-start;font-weight:400;color:#374151}
.consent input{margin:3px 0 0;accent-color:var(--accent)}
.btn{display:block;width:100%;padding:12px 16px;border:0;border-radius:9px;background:var(--accent);color:#fff;font:inherit;font-weight:700;cursor:pointer;text-align:center;text-decoration:none}
.btn[disabled]{opacity:.65;cursor:progress}
.err{color:#b91c1c;font-size:14px;margin:0 0 12px}
.err:empty{display:none}
.steps{list-style:none;margin:16px 0;padding:0}
.steps li{display:flex;gap:10px;align-items:center;padding:8px 0;border-bottom:1px solid #f1f5f9;font-size:14px;color:#6b7280}
.steps li.running,.steps li.done{color:#111827}
.dot{width:18px;height:18px;border-radius:50%;border:2px solid #cbd5e1;flex:none;display:grid;place-items:center;font-size:11px;color:#fff}
.running .dot{border-color:var(--accent);border-right-color:transparent;animation:spin 1s linear infinite}
.done .dot{background:var(--accent);border-color:var(--accent)}
.done .dot::after{content:"\\2713"}
.failed .dot,.skipped .dot{background:#e5e7eb;border-color:#e5e7eb}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.running .dot{animation:none}}
.msg{margin:0 0 4px;color:#374151}
.done-list{margin:12px 0 16px}
.note{color:#4b5563;font-size:13px;margin:12px 0 0}
.ts{margin:0 0 12px;min-height:0}`;

const MAIN = `function (C, mode, css) {
  var d = document;
  var anchor = mode === "frame" ? d.getElementById("audit-widget") : d.currentScript;
  if (!anchor) return;
  var host = anchor;
  if (mode !== "frame") {
    host = d.createElement("div");
    host.className = "audit-widget";
    anchor.parentNode.insertBefore(host, anchor);
  }
  host.style.setProperty("--accent", C.accent);
  var root = host.attachShadow({ mode: "open" });
  try {
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch (e) {
    var st = d.createElement("style");
    st.textContent = css;
    root.appendChild(st);
  }
  function el(tag, props, kids) {
    var n = d.createElement(tag);
    for (var k in props || {}) {
      if (k === "text") n.textContent = props[k];
      else if (k === "class") n.className = props[k];
      else n.setAttribute(k, props[k]);
    }
    (kids || []).forEach(function (c) { if (c) n.appendChild(c); });
    return n;
  }
  var base = C.api + "/api/widget/" + encodeURIComponent(C.id) + "/leads";
  var card = el("div", { class: "card", part: "card" });
  root.appendChild(card);
  function header(title, sub) {
    card.textContent = "";
    card.appendChild(el("div", { class: "head" }, [
      C.logo ? el("img", { class: "logo", src: C.logo, alt: "" }) : null,
      el("div", {}, [el("h2", { text: title }), sub ? el("p", { class: "sub", text: sub }) : null]),
    ]));
  }
  function field(name, label, type, required, auto) {
    var input = el("input", { class: "in", name: name, type: type, autocomplete: auto, maxlength: "200" });
    if (required) input.required = true;
    return el("label", {}, [d.createTextNode(label), required ? null : el("span", { class: "opt", text: " (optional)" }), input]);
  }
  function select(name, label, options) {
    var input = el("select", { class: "in", name: name }, [el("option", { value: "", text: "Choose your trade" })].concat(options.map(function (o) { return el("option", { value: o, text: o }); })));
    input.required = true;
    return el("label", {}, [d.createTextNode(label), input]);
  }
  var token = "";
  function turnstile(slot) {
    if (!C.turnstileSiteKey) return;
    var box = d.createElement("div");
    box.setAttribute("slot", "ts");
    host.appendChild(box);
    slot.appendChild(el("slot", { name: "ts" }));
    function render() {
      window.turnstile.render(box, { sitekey: C.turnstileSiteKey, callback: function (t) { token = t; }, "expired-callback": function () { token = ""; } });
    }
    if (window.turnstile) return render();
    var s = d.createElement("script");
    s.src = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
    s.async = true;
    s.onload = render;
    d.head.appendChild(s);
  }
  function showForm() {
    header("Get your free business audit", "See how your business shows up on Google and what to fix first.");
    var form = el("form", { novalidate: "" }, [
      field("businessName", "Business name", "text", true, "organization"),
      select("trade", "Your trade", C.trades || []),
      field("location", "City or area", "text", true, "address-level2"),
      field("email", "Email", "email", true, "email"),
      C.askWebsite ? field("website", "Website", "text", false, "url") : null,
      C.askPhone ? field("phone", "Phone", "tel", false, "tel") : null,
    ]);
    if (C.consentText) {
      var box = el("input", { type: "checkbox", name: "consent" });
      box.required = true;
      form.appendChild(el("label", { class: "consent" }, [box, el("span", { text: C.consentText })]));
    }
    var ts = el("div", { class: "ts" });
    form.appendChild(ts);
    var err = el("p", { class: "err", role: "alert" });
    var btn = el("button", { class: "btn", type: "submit", text: "Get my free audit" });
    form.appendChild(err);
    form.appendChild(btn);
    card.appendChild(form);
    turnstile(ts);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      err.textContent = "";
      var data = { businessName: "", location: "", email: "" };
      ["businessName", "trade", "location", "email", "website", "phone"].forEach(function (k) { if (form.elements[k]) data[k] = form.elements[k].value.trim(); });
      if (!data.businessName || !data.location || !data.email) { err.textContent = "Please fill in your business name, city and email."; return; }
      if (form.elements.trade && !data.trade) { err.textContent = "Please choose your trade (Other if it is not listed)."; return; }
      if (C.consentText) {
        if (!form.elements.consent.checked) { err.textContent = "Tick the box to agree, then send."; return; }
        data.consent = true;
      }
      if (C.turnstileSiteKey) {
        if (!token) { err.textContent = "Please complete the robot check first."; return; }
        data.turnstileToken = token;
      }
      btn.disabled = true;
      btn.textContent = "Sending…";
      fetch(base, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) })
        .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, b: b }; }); })
        .then(function (res) {
          if (!res.ok) throw new Error((res.b && res.b.error && res.b.error.message) || "Something went wrong. Please try again.");
          showProgress(res.b, data.email);
        })
        .catch(function (e) {
          err.textContent = e instanceof TypeError ? "We could not reach the server. Check your connection and try again." : e.message;
          btn.disabled = false;
          btn.textContent = "Get my free audit";
          if (C.turnstileSiteKey && window.turnstile) { token = ""; window.turnstile.reset(); }
        });
    });
  }
  function showProgress(p, email) {
    header(p.status === "ready" ? "Your free audit is ready" : "Thanks! We are on it", null);
    card.appendChild(el("p", { class: "msg", role: "status", text: p.message }));
    function steps(cls) {
      card.appendChild(el("ol", { class: "steps " + cls }, p.steps.map(function (s) {
        return el("li", { class: s.status }, [el("span", { class: "dot", "aria-hidden": "true" }), el("span", { text: s.label })]);
      })));
    }
    if (p.status === "ready" && p.reportUrl) {
      if (p.steps) steps("done-list");
      card.appendChild(el("a", { class: "btn", href: p.reportUrl, target: "_blank", rel: "noopener", text: "Open your free report" }));
      // Said only when a mail really went (no mail provider, or the address had its mail today: nothing is said).
      if (p.mail === "sent") card.appendChild(el("p", { class: "note", text: "We also sent the link to " + email + "." }));
      return;
    }
    if (p.steps && p.status === "running") steps("");
    var later = p.mail === "will_send"
      ? (p.status === "running" ? "You can close this page: we will email the report to " + email + " too." : "We will email it to " + email + ".")
      : "Keep this page open: your report will show here when it is ready.";
    card.appendChild(el("p", { class: "note", text: later }));
    setTimeout(function () {
      fetch(base + "/" + encodeURIComponent(p.leadId))
        .then(function (r) { return r.ok ? r.json() : p; })
        .then(function (next) { showProgress(next, email); }, function () { showProgress(p, email); });
    }, p.status === "running" ? 2000 : 15000);
  }
  showForm();
}`;

function jsonForScript(value: unknown): string {
  // Safe inside a <script> element (the frame inlines it) and as a JS literal.
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The widget's script for `mode`: the script tag's (mounts before itself) or the frame page's (mounts in #audit-widget). */
export function widgetScript(config: WidgetPublicConfig, mode: "script" | "frame"): string {
  return `/* Free-audit widget */\n(${MAIN})(${jsonForScript(config)}, ${JSON.stringify(mode)}, ${jsonForScript(CSS)});\n`;
}

/** The frame page: the same form, for sites that allow no scripts (`nonce` lets only this script run). */
export function widgetFrameHtml(config: WidgetPublicConfig, nonce: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Free business audit</title><style nonce="${nonce}">html,body{margin:0;padding:8px;background:transparent}</style></head><body><div id="audit-widget"></div><script nonce="${nonce}">${widgetScript(config, "frame")}</script></body></html>`;
}
