/** Attributes of `element`: strings and numbers become attributes, `false`/`undefined` leave them out, functions named `on…` become listeners. */
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export type Child = Node | string | null | undefined | false;

/**
 * A DOM element with attributes and children: the page's only UI helper (no framework).
 *
 * @example
 * element('button', { type: 'button', onclick: () => run() }, 'Score');
 */
export function element<Tag extends keyof HTMLElementTagNameMap>(tag: Tag, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** An SVG element with attributes and children. */
export function svgElement(tag: string, attributes: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  append(node, children);
  return node;
}

function append(node: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces everything inside `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
