// Served as /assets/common.client.js. Behaviour shared by every page: copy buttons, tabs, relative times.
import { $$, copyText, relative, toast } from "./dom.client.js";

/** Wires [data-copy] buttons (also ones added later) to copy their text. */
function wireCopy() {
  document.addEventListener("click", async (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    if (!(button instanceof HTMLElement)) return;
    const ok = await copyText(button.dataset.copy ?? "");
    const label = button.textContent;
    button.textContent = ok ? "Copied" : "Copy failed";
    button.classList.toggle("copied", ok);
    setTimeout(() => {
      button.textContent = label;
      button.classList.remove("copied");
    }, 1400);
    if (!ok) toast("Could not copy: select the text and copy it by hand", "error");
  });
}

/** Tabs per the ARIA authoring practices: click, or arrow keys to move between tabs. */
function wireTabs() {
  for (const list of $$("[role=tablist]")) {
    const tabs = $$("[role=tab]", list);
    const select = (tab, focus) => {
      for (const other of tabs) {
        const selected = other === tab;
        other.setAttribute("aria-selected", String(selected));
        other.tabIndex = selected ? 0 : -1;
        const panel = document.getElementById(other.getAttribute("aria-controls"));
        if (panel) panel.hidden = !selected;
      }
      if (focus) tab.focus();
    };
    list.addEventListener("click", (event) => {
      const tab = event.target instanceof Element ? event.target.closest("[role=tab]") : null;
      if (tab) select(tab, false);
    });
    list.addEventListener("keydown", (event) => {
      const index = tabs.indexOf(document.activeElement);
      if (index < 0) return;
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length], true);
    });
  }
}

/** <time data-relative> shows "3 min ago", with the exact time as a tooltip. */
function wireTimes() {
  const update = () => {
    for (const node of $$("time[data-relative]")) {
      const iso = node.getAttribute("datetime");
      if (!node.title) node.title = node.textContent ?? "";
      node.textContent = relative(iso) || node.title;
    }
  };
  update();
  setInterval(update, 30_000);
}

export function wireCommon() {
  wireCopy();
  wireTabs();
  wireTimes();
}
