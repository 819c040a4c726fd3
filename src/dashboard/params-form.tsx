import { fieldsFromSchema, formatFieldValue, type EnumValue, type FieldSpec } from "./schema-fields.ts";

interface ParamsFormProps {
  /** Prefix for element ids, unique on the page. */
  idPrefix: string;
  schema: unknown;
  /** Current values (changing a session's scenario starts from its params). */
  values?: Record<string, unknown>;
}

const label = (value: EnumValue) => (value === null ? "null" : String(value));

function defaultText(field: FieldSpec): string | undefined {
  if (field.default === undefined) return undefined;
  return formatFieldValue(field.kind === "enum" ? "string" : field.kind, field.default);
}

function Control({ field, id, describedBy, value }: { field: FieldSpec; id: string; describedBy: string; value: unknown }) {
  const common = { id, name: field.name, "aria-describedby": describedBy };
  const placeholder = defaultText(field);
  switch (field.kind) {
    case "enum":
    case "boolean": {
      const options: EnumValue[] = field.kind === "boolean" ? [true, false] : (field.options ?? []);
      const selected = value === undefined ? "" : JSON.stringify(value);
      return (
        <select {...common}>
          {!field.required || field.default !== undefined ? (
            <option value="" selected={selected === ""}>
              {field.default !== undefined ? `default (${placeholder})` : "not set"}
            </option>
          ) : null}
          {options.map((option) => (
            <option value={JSON.stringify(option)} selected={selected === JSON.stringify(option)}>
              {label(option)}
            </option>
          ))}
        </select>
      );
    }
    case "json":
      return <textarea {...common} class="mono" rows={3} spellcheck={false} placeholder={placeholder ?? "JSON value"}>{formatFieldValue("json", value)}</textarea>;
    default:
      return (
        <input
          {...common}
          type="text"
          class={field.kind === "string" ? undefined : "mono"}
          inputmode={field.kind === "integer" ? "numeric" : field.kind === "number" ? "decimal" : undefined}
          autocomplete="off"
          spellcheck={false}
          placeholder={placeholder}
          value={formatFieldValue(field.kind, value)}
        />
      );
  }
}

/** One scenario's params as form fields generated from its JSON Schema; the browser script reads them by kind. */
export function ParamsFields({ idPrefix, schema, values }: ParamsFormProps) {
  const fields = fieldsFromSchema(schema);
  if (fields.length === 0) return <p class="muted">This scenario takes no params.</p>;
  return (
    <div class="fields">
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const hint = [field.description, ...field.constraints].filter(Boolean).join(" · ");
        return (
          <div class="field" data-path={`params.${field.name}`} data-kind={field.kind} data-name={field.name}>
            <label for={id}>
              <code>{field.name}</code>
              {field.required ? <span class="tag">required</span> : null}
            </label>
            <Control field={field} id={id} describedBy={`${id}-hint ${id}-error`} value={values?.[field.name]} />
            <p class="hint" id={`${id}-hint`}>
              {hint}
              {field.default !== undefined && field.kind !== "enum" && field.kind !== "boolean" ? (
                <>
                  {hint ? " · " : ""}default <code>{defaultText(field)}</code>
                </>
              ) : null}
            </p>
            <p class="field-error" id={`${id}-error`} hidden></p>
          </div>
        );
      })}
    </div>
  );
}
