// The robots.txt editor: a plain textarea over a backdrop that draws line numbers,
// lint marks beside their lines and the highlighted line, scrolled in step with it.

const escapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const escapeHtml = (text) => String(text).replace(/[&<>"]/g, (c) => escapes[c]);

// Control characters (a NUL, where Google's matcher ends the path; an escape) and the
// bidirectional controls, from a URL or quoted from the file, are shown as the command
// line shows them, `\u{0}`, instead of vanishing from the page or reordering it.
export const printable = (text) =>
  String(text).replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${c.codePointAt(0).toString(16)}}`);

export class Editor {
  constructor(root) {
    this.textarea = root.querySelector('textarea');
    this.gutter = root.querySelector('.gutter-lines');
    this.backdrop = root.querySelector('.backdrop-lines');
    this.diagnostics = [];
    this.highlighted = 0;
    this.textarea.addEventListener('scroll', () => this.syncScroll());
  }

  get value() {
    return this.textarea.value;
  }

  set value(text) {
    this.textarea.value = text;
  }

  // Lines as numbered in the gutter.
  get lineCount() {
    return this.textarea.value.split('\n').length;
  }

  // Lint findings to draw: [{line, severity, code, message}].
  setDiagnostics(diagnostics) {
    this.diagnostics = diagnostics;
  }

  // Redraws numbers, marks and the highlight for the current text.
  render() {
    const lines = this.textarea.value.split('\n');
    const byLine = new Map();
    for (const d of this.diagnostics) {
      if (!byLine.has(d.line)) byLine.set(d.line, []);
      byLine.get(d.line).push(d);
    }
    let gutter = '';
    let backdrop = '';
    lines.forEach((text, i) => {
      const n = i + 1;
      const found = byLine.get(n) || [];
      const worst = worstSeverity(found);
      const cls = [worst ? `sev-${worst}` : '', n === this.highlighted ? 'highlighted' : '']
        .filter(Boolean).join(' ');
      gutter += `<div class="gl ${cls}" data-line="${n}">${n}</div>`;
      const marks = found
        .map((d) => `<span class="mark sev-${d.severity}">${escapeHtml(d.severity)}: ${escapeHtml(printable(d.message))}</span>`)
        .join('');
      // The text is drawn invisibly so that the marks start where the line ends, with
      // each finding's span underlined, as `robots lint` underlines it.
      backdrop += `<div class="bl ${cls}" data-line="${n}"><span class="ghost">${underlined(text, found)}</span>${marks}</div>`;
    });
    this.gutter.innerHTML = gutter;
    this.backdrop.innerHTML = backdrop;
    this.syncScroll();
  }

  // Highlights line `n` (0 for none) and scrolls it into view.
  highlight(n) {
    this.highlighted = n;
    for (const el of this.gutter.parentElement.parentElement.querySelectorAll('.highlighted')) {
      el.classList.remove('highlighted');
    }
    if (!n) return;
    for (const el of this.gutter.parentElement.parentElement.querySelectorAll(`[data-line="${n}"]`)) {
      el.classList.add('highlighted');
    }
    const lineHeight = parseFloat(getComputedStyle(this.textarea).lineHeight) || 20;
    const top = (n - 1) * lineHeight;
    const view = this.textarea.clientHeight;
    if (top < this.textarea.scrollTop || top + lineHeight > this.textarea.scrollTop + view) {
      this.textarea.scrollTop = Math.max(0, top - view / 3);
    }
    this.syncScroll();
  }

  syncScroll() {
    const { scrollTop, scrollLeft } = this.textarea;
    this.gutter.style.transform = `translateY(${-scrollTop}px)`;
    this.backdrop.style.transform = `translate(${-scrollLeft}px, ${-scrollTop}px)`;
  }
}

function worstSeverity(diagnostics) {
  const rank = { error: 3, warning: 2, info: 1 };
  let worst = '';
  for (const d of diagnostics) if (!worst || rank[d.severity] > rank[worst]) worst = d.severity;
  return worst;
}

// `text` (one line) as HTML with the spans of `found` underlined in their severity's
// colour. Columns and lengths count the line's UTF-8 bytes, as the engine does; a span
// that starts at the end of the line (a missing value) underlines one blank past it.
function underlined(text, found) {
  if (!found.length) return escapeHtml(text);
  const rank = { error: 3, warning: 2, info: 1 };
  const chars = [...text];
  // Each character's (and the end's) byte offset in the line.
  const offsets = [];
  let bytes = 0;
  for (const c of chars) {
    offsets.push(bytes);
    const cp = c.codePointAt(0);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  offsets.push(bytes);
  const worst = offsets.map(() => '');
  for (const d of found) {
    const start = (d.span_column ?? d.column) - 1;
    const end = start + Math.max(1, d.length);
    offsets.forEach((at, i) => {
      // The end of the line is marked only by a span that starts there.
      const inside = i < chars.length ? at >= start && at < end : start >= at;
      if (inside && (!worst[i] || rank[d.severity] > rank[worst[i]])) worst[i] = d.severity;
    });
  }
  const run = (text, severity) =>
    (severity ? `<span class="squiggle sev-${severity}">${escapeHtml(text)}</span>` : escapeHtml(text));
  let html = '';
  for (let i = 0; i < chars.length;) {
    let j = i + 1;
    while (j < chars.length && worst[j] === worst[i]) j += 1;
    html += run(chars.slice(i, j).join(''), worst[i]);
    i = j;
  }
  const end = worst[chars.length];
  return end ? html + run(' ', end) : html;
}
