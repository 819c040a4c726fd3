import type { Child } from "hono/jsx";

/** A button that copies `text` (the script wires every [data-copy] button). */
export function CopyButton({ text, label = "Copy", what }: { text: string; label?: string; what?: string }) {
  return (
    <button type="button" class="small ghost copy" data-copy={text} aria-label={`${label} ${what ?? text}`}>
      {label}
    </button>
  );
}

/**
 * Prose in which `backticked` spans show as code, as scenario summaries are written. The text is split, never parsed
 * as markup, so whatever it holds stays text; an unpaired backtick stays as it is.
 */
export function WithCode({ text }: { text: string }) {
  const parts = text.split("`");
  if (parts.length % 2 === 0) parts.splice(-2, 2, `${parts.at(-2)}\`${parts.at(-1)}`);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part))}</>;
}

/** A block of code with a copy button; `caption` says where it goes. */
export function CodeBlock({ code, caption, what }: { code: string; caption?: Child; what: string }) {
  return (
    <figure class="code-block">
      <figcaption>
        <span>{caption}</span>
        <CopyButton text={code} what={what} />
      </figcaption>
      {/* Focusable, so a keyboard can scroll it when a line is wider than the block. */}
      <pre tabindex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

export interface Tab {
  id: string;
  label: string;
  content: Child;
}

/** Tabs: all panels render, the script shows one at a time (without the script only the first shows). */
export function Tabs({ id, label, tabs }: { id: string; label: string; tabs: readonly Tab[] }) {
  return (
    <div class="tabs" id={id}>
      <div class="tablist" role="tablist" aria-label={label}>
        {tabs.map((tab, index) => (
          <button type="button" role="tab" id={`${id}-tab-${tab.id}`} aria-controls={`${id}-panel-${tab.id}`} aria-selected={index === 0 ? "true" : "false"} tabindex={index === 0 ? 0 : -1}>
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div class="tabpanel" role="tabpanel" id={`${id}-panel-${tab.id}`} aria-labelledby={`${id}-tab-${tab.id}`} hidden={index !== 0}>
          {tab.content}
        </div>
      ))}
    </div>
  );
}
