/** RFC 9110 §5.6.7 HTTP-date parsing (IMF-fixdate plus the two obsolete forms), always GMT. */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = MONTHS.join("|");
const DAY = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
const DAY_LONG = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday";

const IMF_FIXDATE = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const RFC850_DATE = new RegExp(`^(?:${DAY_LONG}), (\\d{2})-(${MONTH})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:${DAY}) (${MONTH}) ([ \\d]\\d) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$`);

/** Milliseconds since the epoch, or undefined when `text` is not an HTTP-date. */
export function parseHttpDate(text: string, referenceMs?: number): number | undefined {
  const value = text.trim();
  let m = IMF_FIXDATE.exec(value);
  if (m) return build(num(m[3]), m[2], num(m[1]), num(m[4]), num(m[5]), num(m[6]));
  m = RFC850_DATE.exec(value);
  if (m) return build(fullYear(num(m[3]), referenceMs), m[2], num(m[1]), num(m[4]), num(m[5]), num(m[6]));
  m = ASCTIME_DATE.exec(value);
  if (m) return build(num(m[6]), m[1], num(m[2]), num(m[3]), num(m[4]), num(m[5]));
  return undefined;
}

function num(text: string | undefined): number {
  return Number.parseInt((text ?? "").trim(), 10);
}

// RFC 9110: a two-digit year more than 50 years in the future means the most recent past year with those digits.
function fullYear(twoDigits: number, referenceMs: number | undefined): number {
  const refYear = referenceMs !== undefined && Number.isFinite(referenceMs) ? new Date(referenceMs).getUTCFullYear() : 2000;
  let year = Math.floor(refYear / 100) * 100 + twoDigits;
  if (year > refYear + 50) year -= 100;
  return year;
}

function build(year: number, monthName: string | undefined, day: number, hour: number, minute: number, second: number) {
  const month = MONTHS.indexOf(monthName ?? "");
  if (month < 0 || hour > 23 || minute > 59 || second > 60 || day < 1) return undefined;
  const ms = Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
  // Reject dates such as 31 Feb that Date.UTC would silently roll over.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return ms;
}
