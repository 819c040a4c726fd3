import { isRecord, show, typeName } from "./json.ts";

/** A problem with one content block: "error" makes the result invalid, "warning" is reported only. */
export interface ContentProblem {
  index: number;
  severity: "error" | "warning";
  message: string;
}

// Base64 once whitespace is removed: the alphabet, then at most two "=". Whitespace may sit anywhere, so the test reads
// the data as it is (one pass, no copy without the whitespace): letters and whitespace, then "=" each followed by any.
const BASE64 = /^[A-Za-z0-9+/\s]*(?:=\s*){0,2}$/;

function needString(block: Record<string, unknown>, key: string, index: number, out: ContentProblem[]): void {
  if (typeof block[key] !== "string") {
    out.push({ index, severity: "error", message: `content[${index}] (${String(block.type)}) needs a string "${key}", got ${typeName(block[key])}` });
  }
}

function checkBase64(block: Record<string, unknown>, index: number, out: ContentProblem[]): void {
  const data = block.data;
  if (typeof data === "string" && !BASE64.test(data)) {
    out.push({ index, severity: "warning", message: `content[${index}].data is not base64` });
  }
}

function checkAnnotations(block: Record<string, unknown>, index: number, out: ContentProblem[]): void {
  const annotations = block.annotations;
  if (annotations === undefined) return;
  if (!isRecord(annotations)) {
    out.push({ index, severity: "warning", message: `content[${index}].annotations is not an object` });
    return;
  }
  const { audience, priority } = annotations;
  if (audience !== undefined && !(Array.isArray(audience) && audience.every((a) => a === "user" || a === "assistant"))) {
    out.push({ index, severity: "warning", message: `content[${index}].annotations.audience must list "user" or "assistant"` });
  }
  if (priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1)) {
    out.push({ index, severity: "warning", message: `content[${index}].annotations.priority must be a number from 0 to 1` });
  }
}

/** Checks one ContentBlock (text, image, audio, resource_link, resource), the same in all three versions. */
export function checkContentBlock(block: unknown, index: number): ContentProblem[] {
  const out: ContentProblem[] = [];
  if (!isRecord(block)) {
    out.push({ index, severity: "error", message: `content[${index}] is ${typeName(block)}, not a content block object` });
    return out;
  }
  switch (block.type) {
    case "text":
      needString(block, "text", index, out);
      break;
    case "image":
    case "audio":
      needString(block, "data", index, out);
      needString(block, "mimeType", index, out);
      checkBase64(block, index, out);
      break;
    case "resource_link":
      needString(block, "uri", index, out);
      needString(block, "name", index, out);
      break;
    case "resource": {
      const resource = block.resource;
      if (!isRecord(resource)) {
        out.push({ index, severity: "error", message: `content[${index}] (resource) needs a "resource" object` });
        break;
      }
      if (typeof resource.uri !== "string") out.push({ index, severity: "error", message: `content[${index}].resource needs a string "uri"` });
      const text = typeof resource.text === "string";
      const blob = typeof resource.blob === "string";
      if (text === blob) out.push({ index, severity: "error", message: `content[${index}].resource needs exactly one of string "text" or "blob"` });
      break;
    }
    default:
      out.push({ index, severity: "error", message: `content[${index}] has unknown type ${show(block.type)}` });
      return out;
  }
  checkAnnotations(block, index, out);
  return out;
}
