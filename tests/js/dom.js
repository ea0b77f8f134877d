// A little of the browser for the page's modules under Node (`node --test tests/js/`): enough of `document`,
// `location` and `localStorage` for them to load and for their pure functions to run. Import it first.
class FakeNode {}
class FakeElement extends FakeNode {
  constructor(tag) { super(); this.tagName = tag.toUpperCase(); this.attributes = new Map(); this.children = []; this.textContent = ""; }
  setAttribute(k, v) { this.attributes.set(k, String(v)); }
  getAttribute(k) { return this.attributes.has(k) ? this.attributes.get(k) : null; }
  addEventListener() {}
  append(...kids) { this.children.push(...kids); }
}
class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  clear() { this.items.clear(); }
}

globalThis.Node = FakeNode;
globalThis.document = {
  head: new FakeElement("head"),
  body: new FakeElement("body"),
  getElementById: () => null,
  createElement: tag => new FakeElement(tag),
  createElementNS: (_ns, tag) => new FakeElement(tag),
  createTextNode: text => Object.assign(new FakeNode(), { textContent: text }),
};
globalThis.location = { hash: "", origin: "http://127.0.0.1:8000", pathname: "/" };
globalThis.localStorage = new FakeStorage();
globalThis.sessionStorage = new FakeStorage();
