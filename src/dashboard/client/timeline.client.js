// Served as /assets/timeline.client.js. Draws the session timeline as inline SVG (geometry from timeline-layout).
import { clock, duration, replace, s } from "./dom.client.js";
import { outcomeClass, outcomeLabel } from "./outcomes.client.js";
import { layoutTimeline } from "./timeline-layout.client.js";

const shorten = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function markTitle(mark) {
  const outcome = mark.outcome ? outcomeLabel(mark.outcome) : "no verdict";
  return `#${mark.seq} ${mark.key} · ${outcome} · HTTP ${mark.status} · ${clock(mark.time)}`;
}

function gapTitle(gap) {
  if (gap.followUp) return `Follow-up #${gap.to} ${gap.label.slice(1)} after input was required (#${gap.from})`;
  const asked = gap.advisedMs !== undefined ? `; the server asked to wait ${duration(gap.advisedMs)}` : "";
  const origin = gap.origin ? `. ${gap.origin}` : "";
  return `Retry #${gap.to} came ${gap.label.slice(1)} after #${gap.from} failed (${gap.after})${asked}${gap.tooSoon ? ": too soon" : ""}${origin}`;
}

/**
 * Renders `entries` into `container`; `onSelect(seq)` runs when a mark is clicked or activated with the keyboard.
 * `selected` is the seq to ring, if any.
 * @param {HTMLElement} container
 * @param {object[]} entries
 * @param {{ onSelect?: (seq: number) => void, selected?: number }} [options]
 */
export function renderTimeline(container, entries, { onSelect, selected } = {}) {
  // Narrow screens put each lane's label above it, in full, and give the time axis the whole width.
  const narrow = container.clientWidth < 560;
  const layout = layoutTimeline(entries, { width: Math.max(container.clientWidth, 280), labelWidth: 160, labelsAbove: narrow });
  // A group, not an image: its marks are buttons, and an image's children are presentational (WCAG 4.1.2).
  const svg = s("svg", {
    class: "timeline-svg",
    width: layout.width,
    height: layout.height,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    role: "group",
    "aria-label": `Timeline of ${entries.length} exchanges in ${layout.lanes.length} lanes; ${layout.gaps.filter((g) => g.tooSoon).length} retries came too soon`,
  });

  layout.lanes.forEach((lane, i) => {
    svg.append(
      s("rect", { class: i % 2 ? "lane-bg odd" : "lane-bg", x: 0, y: lane.top, width: layout.width, height: lane.height }),
      layout.labelsAbove
        ? s("text", { class: "lane-label", x: 8, y: lane.labelY, "text-anchor": "start", text: lane.key })
        : s("text", { class: "lane-label", x: layout.labelWidth, y: lane.labelY, "text-anchor": "end" }, shorten(lane.key, 22), s("title", { text: lane.key })),
    );
  });
  svg.append(s("line", { class: "axis", x1: layout.labelWidth + 8, x2: layout.width, y1: layout.axisY, y2: layout.axisY }));
  for (const tick of layout.ticks) {
    svg.append(
      s("line", { class: "tick", x1: tick.x, x2: tick.x, y1: 4, y2: layout.axisY + 4 }),
      s("text", { class: "tick-label", x: tick.x, y: layout.axisY + 17, "text-anchor": "middle", text: tick.label }),
    );
  }
  for (const gap of layout.breaks) {
    const top = 4;
    const bottom = layout.axisY;
    const zig = `M${gap.x - 3},${top} L${gap.x + 3},${top + 6} L${gap.x - 3},${top + 12}`;
    svg.append(
      s("path", { class: "break", d: `${zig} M${gap.x},${top + 14} V${bottom}` }),
      s("text", { class: "break-label", x: gap.x, y: layout.axisY + (gap.level ? 30 : 17), "text-anchor": "middle", text: gap.label }),
    );
  }
  for (const mark of layout.marks) {
    if (mark.xEnd - mark.x >= 2) svg.append(s("line", { class: `dur ${outcomeClass(mark.outcome)}`, x1: mark.x, x2: mark.xEnd, y1: mark.y, y2: mark.y }));
  }
  for (const gap of layout.gaps) {
    const kind = gap.followUp ? "gap follow-up" : gap.tooSoon ? "gap gap-fast" : "gap";
    const labelY = gap.level ? gap.y + 16 : gap.y - 8;
    svg.append(
      s(
        "g",
        { class: kind, dataset: { from: gap.from, to: gap.to } },
        s("line", { x1: gap.x1, x2: gap.x2, y1: gap.y, y2: gap.y }),
        s("text", { class: "gap-label", x: (gap.x1 + gap.x2) / 2, y: labelY, "text-anchor": "middle", text: gap.label }),
        s("title", { text: gapTitle(gap) }),
      ),
    );
  }
  for (const mark of layout.marks) {
    svg.append(
      s(
        "circle",
        { class: `mark ${outcomeClass(mark.outcome)}${mark.seq === selected ? " selected" : ""}`, cx: mark.x, cy: mark.y, r: 6, tabindex: 0, role: "button", "aria-label": markTitle(mark), dataset: { seq: mark.seq } },
        s("title", { text: markTitle(mark) }),
      ),
    );
  }

  const activate = (event) => {
    const seq = Number(event.target?.dataset?.seq);
    if (seq && onSelect) onSelect(seq);
  };
  svg.addEventListener("click", activate);
  svg.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      activate(event);
    }
  });
  replace(container, svg);
  return layout;
}
