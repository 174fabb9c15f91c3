// Where the elements of one array member of a JSON object lie in its text, so that each can
// be kept exactly as sent (a batch's items in the push log: docs/design.md section 2, rule
// 11). The text is one the JSON parser has already accepted, so only strings (with their
// escapes) and nesting need following, not errors.

/**
 * The text of each element of the array `member` of the top-level object in `json`, in
 * order; undefined when there is no such array. With the member given twice, the last one
 * counts, as JSON.parse takes it.
 */
export function arrayElementTexts(json: string, member: string): string[] | undefined {
  let found: string[] | undefined;
  let depth = 0;
  let i = 0;
  // The last string seen at depth 1 in key position, and whether a ':' followed it.
  let key: string | undefined;
  let expectingKey = false;
  while (i < json.length) {
    const c = json[i]!;
    if (c === '"') {
      const end = stringEnd(json, i);
      if (depth === 1 && expectingKey) key = JSON.parse(json.slice(i, end)) as string;
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      if (depth === 1 && c === '[' && key === member) {
        const { elements, end } = elementsOf(json, i);
        found = elements;
        i = end;
        continue;
      }
      depth += 1;
      if (depth === 1) expectingKey = true;
    } else if (c === '}' || c === ']') {
      depth -= 1;
    } else if (depth === 1 && c === ':') {
      expectingKey = false;
    } else if (depth === 1 && c === ',') {
      expectingKey = true;
      key = undefined;
    }
    i += 1;
  }
  return found;
}

/** The index just past the string that opens at `start`. */
function stringEnd(json: string, start: number): number {
  let i = start + 1;
  while (json[i] !== '"') i += json[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The elements of the array that opens at `start`, trimmed, and the index just past it. */
function elementsOf(json: string, start: number): { elements: string[]; end: number } {
  const elements: string[] = [];
  let depth = 0;
  let from = start + 1;
  let i = start + 1;
  for (;;) {
    const c = json[i]!;
    if (c === '"') {
      i = stringEnd(json, i);
      continue;
    }
    if (c === '{' || c === '[') depth += 1;
    else if ((c === '}' || c === ']') && depth > 0) depth -= 1;
    else if (depth === 0 && (c === ',' || c === ']')) {
      const text = json.slice(from, i).trim();
      if (text !== '') elements.push(text);
      if (c === ']') return { elements, end: i + 1 };
      from = i + 1;
    }
    i += 1;
  }
}
