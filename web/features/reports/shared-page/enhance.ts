// The shared report's behaviour, attached to server-rendered markup through data-* attributes: copy buttons,
// overview cards that scroll to their section, print to PDF, broken-image stand-ins, and view beacons (./beacon).
import { onCopyClick } from "../../../lib/copy-buttons";
import { beaconSender, type Beacon } from "../../../lib/beacon";
import type { ReportEventName } from "../../../../worker/features/reports/rules/event-names";
import { markNames, sharedAiAnswerPath, type AnswerView } from "../../../../worker/features/ai-visibility/rules/contract";
function scrollToSection(link: HTMLAnchorElement, event: Event) {
  const id = link.dataset.scrollTo!;
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  target.focus({ preventScroll: true });
  history.replaceState(null, "", `#${id}`);
}

/** Swaps a post image that failed to load for the drawn stand-in the server renders for placeholders. */
function drawFallback(img: HTMLImageElement) {
  const text = img.dataset.fallback ?? "";
  const box = document.createElement("div");
  box.className = "post-image is-drawn";
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", `Image idea: ${text}`);
  const span = document.createElement("span");
  span.textContent = text;
  box.append(span);
  img.replaceWith(box);
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** One answer as the report shows it: the text with the businesses named marked, then its sources (text only, never HTML). */
function answerItem(answer: AnswerView): HTMLLIElement {
  const li = element("li");
  if (answer.status !== "ok" || answer.text === null) {
    li.append(element("p", "audit-muted", `This time the assistant did not answer (${answer.error ?? "no answer"}), so it is not counted.`));
    return li;
  }
  const text = element("p", "report-ai-text");
  const names = answer.named.map((n) => n.name);
  const self = answer.named.filter((n) => n.self).map((n) => n.name);
  for (const part of markNames(answer.text, names, self)) {
    if (!part.name) text.append(part.text);
    else text.append(element("mark", part.self ? "aiv-self" : undefined, part.text));
  }
  li.append(text);
  const sources = answer.sources.filter((s) => /^https?:\/\//i.test(s.url));
  if (sources.length > 0) {
    const p = element("p", "report-ai-sources", "Sources: ");
    sources.forEach((s, i) => {
      if (i > 0) p.append(", ");
      const a = element("a", undefined, s.title || s.url);
      a.href = s.url;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      p.append(a);
    });
    li.append(p);
  }
  return li;
}

/**
 * A line's answers, fetched the first time its disclosure opens from the share-scoped route (only this report's scan
 * answers there). A failure says so and lets the next opening try again.
 */
async function openAiAnswers(reportId: string, box: HTMLElement): Promise<void> {
  if (box.dataset.loaded) return;
  box.dataset.loaded = "loading";
  const status = box.querySelector<HTMLElement>("[data-ai-answers-status]");
  const list = box.querySelector<HTMLElement>("[data-ai-answers-list]");
  if (!list) return;
  const ids = (box.dataset.aiAnswers ?? "").split(",").filter(Boolean);
  try {
    const answers = await Promise.all(
      ids.map(async (id) => {
        const res = await fetch(sharedAiAnswerPath(reportId, id), { headers: { Accept: "application/json" } });
        if (!res.ok) throw new Error(String(res.status));
        return (await res.json()) as AnswerView;
      }),
    );
    list.replaceChildren(...answers.map(answerItem));
    box.dataset.loaded = "yes";
    if (status) status.hidden = true;
  } catch {
    delete box.dataset.loaded;
    if (status) status.textContent = "The answers could not be opened just now. Close this and open it again to retry.";
  }
}

/** Wires up the page. `root` holds the markup of SharedReportView. Returns a cleanup for the SPA. */
export function enhanceSharedReport(root: Document | HTMLElement = document, opts: { beacons?: boolean } = {}): () => void {
  const page = root.querySelector<HTMLElement>("[data-report-id]");
  const reportId = page?.dataset.reportId;
  const beacon: Beacon = reportId && opts.beacons !== false ? beaconSender(reportId) : () => undefined;
  const cleanups: Array<() => void> = [];

  const onClick = (event: Event) => {
    const target = event.target as Element | null;
    const scroll = target?.closest?.<HTMLAnchorElement>("a[data-scroll-to]");
    if (scroll) return scrollToSection(scroll, event);
    if (target?.closest?.("[data-print]")) {
      beacon("print");
      window.print();
      return;
    }
    const answers = target?.closest?.("summary")?.parentElement;
    if (reportId && answers?.matches("details[data-ai-answers]")) void openAiAnswers(reportId, answers);
    const tracked = target?.closest?.<HTMLElement>("[data-event]");
    if (tracked) beacon(tracked.dataset.event as ReportEventName);
    void onCopyClick(event);
  };
  root.addEventListener("click", onClick);
  cleanups.push(() => root.removeEventListener("click", onClick));

  // Printing from the browser's own menu counts too.
  const onPrint = () => beacon("print");
  window.addEventListener("beforeprint", onPrint);
  cleanups.push(() => window.removeEventListener("beforeprint", onPrint));

  for (const button of root.querySelectorAll<HTMLElement>("[data-print]")) button.hidden = false;
  // Copy buttons show once they can work (shared-report.css hides them on a page without its script).
  page?.classList.add("is-enhanced");

  for (const img of root.querySelectorAll<HTMLImageElement>("img[data-fallback]")) {
    if (img.complete && img.naturalWidth === 0 && img.src) drawFallback(img);
    else img.addEventListener("error", () => drawFallback(img), { once: true });
  }

  if (page?.querySelector(".report-sections")) {
    beacon("opened");
    if (typeof IntersectionObserver !== "undefined") {
      const seen = new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue;
            beacon("section_viewed", (entry.target as HTMLElement).id);
            seen.unobserve(entry.target);
          }
        },
        // Seen once its top reaches the upper two thirds of the screen (tall sections never fit whole).
        { rootMargin: "0px 0px -33% 0px", threshold: 0 },
      );
      for (const section of root.querySelectorAll<HTMLElement>(".report-section[id]")) seen.observe(section);
      cleanups.push(() => seen.disconnect());
    }
  }
  return () => cleanups.forEach((fn) => fn());
}
