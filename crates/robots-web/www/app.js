// The tester page: reads the form, asks the engine (WebAssembly, in this page) for
// verdicts, explanations and lint on every change, and keeps the state in the fragment.

import { Editor, escapeHtml, printable } from './editor.js';
import { encodeState, decodeState } from './share.js';
import { verdictRows, explanationHtml, lintItems, factsHtml, setReasonPhrases } from './results.js';

const CRAWLERS = [
  'Googlebot', 'Bingbot', 'DuckDuckBot', 'Applebot', 'YandexBot', 'Baiduspider',
  'GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended', 'PerplexityBot', 'ia_archiver',
  'archive.org_bot', 'facebookexternalhit',
];

const EXAMPLE = {
  robots: `# Paste your robots.txt here, or drop the file on the page: it is checked in this page, never uploaded.
User-agent: *
Disallow: /private/
Disallow: /search
Allow: /search/help

# Archives that honour Archive-Embargo may take the news after a month.
User-agent: ExampleArchiver
Archive-Embargo: m
Embargo-Allow: /news/
Disallow: /

Sitemap: https://example.com/sitemap.xml
`,
  agent: 'Googlebot',
  profile: 'rfc9309',
  embargo: false,
  urls: '/news/today\n/private/report\n/search?q=robots\n/search/help\nhttps://example.com/about',
};

const $ = (id) => document.getElementById(id);
const editor = new Editor($('editor'));
const ui = {
  agent: $('agent'), urls: $('urls'), embargo: $('embargo'), results: $('results'),
  tbody: document.querySelector('#results tbody'), explain: $('explain'), lint: $('lint'),
  summary: $('summary'), agentNote: $('agent-note'), embargoNote: $('embargo-note'),
  empty: $('results-empty'), share: $('share'), shareStatus: $('share-status'),
  agents: $('agents'), fileNote: $('file-note'), resultsSummary: $('results-summary'),
  facts: $('facts'),
};

let parse = null; // the engine's parse, once its WebAssembly has loaded
let file = null; // the parsed RobotsFile, freed when replaced
let parsed = null; // what `file` was parsed from, with its summary and lint
let verdicts = [];
let selected = -1;
let pending = 0;
let updates = 0;

const profile = () => document.querySelector('input[name="profile"]:checked').value;

function readState() {
  return {
    robots: editor.value, agent: trimAscii(ui.agent.value), profile: profile(),
    embargo: ui.embargo.checked, urls: ui.urls.value,
  };
}

function applyState(state) {
  editor.value = state.robots;
  ui.agent.value = state.agent;
  document.querySelector(`input[name="profile"][value="${state.profile}"]`).checked = true;
  ui.embargo.checked = state.embargo;
  ui.urls.value = state.urls;
  selected = -1;
}

// White space around a URL or the agent is dropped as `robots check` drops it around
// each line of standard input: ASCII white space only. A no-break or ideographic space
// is part of the URL (percent-encoded, it can change the verdict), so it stays.
const trimAscii = (text) => text.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
const urlList = (text) => text.split('\n').map(trimAscii).filter(Boolean);
// The crawler field names one crawler, or several separated by commas.
const agentList = (text) => text.split(',').map(trimAscii).filter(Boolean);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// A file past the parse limit is read only up to it, as crawlers read it: say so where
// the size is shown, since the groups, lines and verdicts are those of the part read.
function parseLimitNote(summary, diagnostics) {
  if (summary.parsed_bytes >= summary.bytes) return '';
  const cut = diagnostics.find((d) => d.code === 'beyond-parse-limit');
  const n = (count) => count.toLocaleString('en');
  const from = cut ? `line ${n(cut.line)} on` : 'the rest';
  return `past the parse limit of ${n(summary.parse_limit)} bytes: only the first ${n(summary.parsed_bytes)}`
    + ` of ${n(summary.bytes)} bytes are read, and ${from} is ignored, as crawlers ignore it · `;
}

// Recomputes everything from the form: parse, lint, check, and the open explanation.
function update() {
  pending = 0;
  const state = readState();
  const started = performance.now();
  // The file is parsed, linted and drawn again only when it or the profile changed:
  // typing a URL or a crawler's name against a large file must not redraw every line.
  const reparse = !file || parsed.robots !== state.robots || parsed.profile !== state.profile;
  if (reparse) {
    file?.free();
    file = parse(new TextEncoder().encode(state.robots), state.profile);
    parsed = {
      robots: state.robots, profile: state.profile,
      summary: JSON.parse(file.summary()), diagnostics: JSON.parse(file.lint()),
    };
    editor.setDiagnostics(parsed.diagnostics);
    editor.render();
  }
  const { summary, diagnostics } = parsed;

  const google = state.profile === 'google';
  ui.embargo.disabled = google;
  ui.embargoNote.textContent = google ? "Google's matcher knows no Archive-Embargo." : '';
  const embargo = state.embargo && !google;

  ui.agentNote.textContent = '';
  ui.agentNote.classList.remove('error');
  verdicts = [];
  const names = agentList(state.agent);
  const notes = [];
  const delays = [];
  const seen = new Map(); // crawler token (case ignored) -> the name that first gave it
  if (!names.length) {
    ui.agentNote.textContent = 'Name a crawler, e.g. Googlebot.';
  }
  // Several crawlers, as `robots check --agent A --agent B` checks them: per URL, a
  // verdict per crawler in the order given; a crawler named twice is checked once.
  const urls = urlList(state.urls);
  const answers = [];
  for (const name of names) {
    try {
      const answer = JSON.parse(file.check(name, embargo, urls));
      const key = answer.agent.token.toLowerCase();
      if (seen.has(key)) {
        notes.push(`${name} names the same crawler as ${seen.get(key)}: checked once.`);
        continue;
      }
      seen.set(key, name);
      answers.push({ name, answer });
      delays.push({ agent: name, seconds: answer.crawl_delay });
      const said = answer.agent.notes.join(' ');
      if (said) notes.push(names.length > 1 ? `${name}: ${said}` : said);
    } catch (err) {
      notes.push(names.length > 1 ? `${name}: ${err.message ?? err}` : String(err.message ?? err));
      ui.agentNote.classList.add('error');
    }
  }
  urls.forEach((_, u) => {
    for (const { name, answer } of answers) verdicts.push({ ...answer.verdicts[u], agent: name });
  });
  if (notes.length) ui.agentNote.textContent = notes.join(' ');
  const several = answers.length > 1;
  if (selected >= verdicts.length) selected = -1;
  ui.tbody.innerHTML = verdictRows(verdicts, selected, several);
  $('agent-col').hidden = !several;
  ui.facts.innerHTML = factsHtml(file.sitemaps(), file.host() ?? null, delays);
  ui.empty.textContent = verdicts.length ? '' : 'Verdicts appear here as you type URLs.';
  ui.resultsSummary.textContent = verdictCounts(verdicts);
  showExplanation(state, embargo);
  saveToFragment(state);
  updates += 1;
  document.body.dataset.updates = String(updates);
  if (!reparse) return;

  ui.lint.innerHTML = diagnostics.length ? lintItems(diagnostics) : '<li class="clean">No findings.</li>';
  const named = new Set(summary.groups.flatMap((g) => g.agents).filter((a) => a !== '*'));
  ui.agents.innerHTML = [...named, ...CRAWLERS.filter((c) => !named.has(c))]
    .map((a) => `<option value="${escapeHtml(a)}">`).join('');
  const counts = (sev) => diagnostics.filter((d) => d.severity === sev).length;
  ui.summary.textContent = `${plural(editor.lineCount, 'line')} · ${plural(summary.groups.length, 'group')} · `
    + `${parseLimitNote(summary, diagnostics)}`
    // Counted as `robots lint` counts them: errors, warnings and information.
    + `${plural(counts('error'), 'error')}, ${plural(counts('warning'), 'warning')}, ${counts('info')} info · `
    + `${(performance.now() - started).toFixed(1)} ms`;
}

// What a screen reader announces as the verdicts change: how many, of which kind.
function verdictCounts(list) {
  if (!list.length) return '';
  const kind = (v) => (!v.allowed ? 'disallowed' : v.embargo_days != null ? 'embargoed' : 'allowed');
  const kinds = ['allowed', 'embargoed', 'disallowed']
    .map((k) => [k, list.filter((v) => kind(v) === k).length])
    .filter(([, n]) => n)
    .map(([k, n]) => `${n} ${k}`);
  return `${plural(list.length, 'verdict')}: ${kinds.join(', ')}.`;
}

function showExplanation(state, embargo) {
  if (selected < 0) {
    ui.explain.hidden = true;
    editor.highlight(0);
    return;
  }
  const v = verdicts[selected];
  const e = JSON.parse(file.explain(v.agent, embargo, v.url));
  ui.explain.innerHTML = explanationHtml(e, v);
  ui.explain.hidden = false;
  editor.highlight(v.line ?? 0);
}

// A dropped file is read as bytes and decoded as UTF-8, the encoding RFC 9309 gives
// robots.txt (the page has no other way in for a file). A byte-order mark is kept, for
// lint to report; octets that are not UTF-8 become U+FFFD, which the engine then reads in
// their place, so the note says so rather than let the file pass for clean UTF-8.
async function loadFile(dropped) {
  const bytes = new Uint8Array(await dropped.arrayBuffer());
  let note = `Loaded ${printable(dropped.name)}, ${plural(bytes.length, 'byte')}.`;
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    note += ' Not all of it is UTF-8, which RFC 9309 asks for: each octet that is not is shown and checked as U+FFFD (\uFFFD).';
  }
  editor.value = text;
  selected = -1;
  update();
  ui.fileNote.textContent = note;
}

function schedule() {
  if (!pending) pending = requestAnimationFrame(update);
}

function select(index) {
  selected = index;
  for (const row of ui.tbody.rows) {
    const on = Number(row.dataset.index) === index;
    row.classList.toggle('selected', on);
    if (on) row.setAttribute('aria-current', 'true');
    else row.removeAttribute('aria-current');
  }
  const state = readState();
  showExplanation(state, state.embargo && state.profile !== 'google');
}

let fragmentTimer = 0;
function saveToFragment(state) {
  clearTimeout(fragmentTimer);
  fragmentTimer = setTimeout(async () => {
    history.replaceState(null, '', '#' + (await encodeState(state)));
  }, 250);
}

async function loadFragment() {
  const state = await decodeState(location.hash);
  if (state) {
    applyState(state);
    update();
  }
  return Boolean(state);
}

function wire() {
  for (const el of [editor.textarea, ui.agent, ui.urls]) el.addEventListener('input', schedule);
  // Once edited, the file is no longer the one the note describes.
  editor.textarea.addEventListener('input', () => { ui.fileNote.textContent = ''; });
  // A file dragged anywhere onto the page, the editor included, is loaded into the editor
  // instead of opened by the browser in the page's place, which would lose the form.
  // Dragged text is left to the browser: dropped in a field, it is typed there.
  const carriesFile = (event) => event.dataTransfer?.types.includes('Files');
  document.addEventListener('dragover', (event) => {
    if (!carriesFile(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    document.body.classList.add('dropping');
  });
  document.addEventListener('dragleave', (event) => {
    if (!event.relatedTarget) document.body.classList.remove('dropping');
  });
  document.addEventListener('drop', (event) => {
    if (!carriesFile(event)) return;
    event.preventDefault();
    document.body.classList.remove('dropping');
    const [dropped] = event.dataTransfer.files;
    if (dropped) loadFile(dropped);
  });
  for (const el of document.querySelectorAll('input[name="profile"], #embargo')) {
    el.addEventListener('change', schedule);
  }
  document.addEventListener('click', (event) => {
    const line = event.target.closest('.line-link');
    if (line) {
      editor.highlight(Number(line.dataset.line));
      return;
    }
    const row = event.target.closest('#results tbody tr');
    if (row) select(Number(row.dataset.index));
  });
  // Arrow keys move between verdicts once one has focus.
  ui.results.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const next = selected + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0 || next >= verdicts.length) return;
    event.preventDefault();
    select(next);
    ui.tbody.rows[next].querySelector('.row-link').focus();
  });
  ui.share.addEventListener('click', async () => {
    const link = `${location.origin}${location.pathname}#${await encodeState(readState())}`;
    history.replaceState(null, '', link);
    try {
      await navigator.clipboard.writeText(link);
      ui.shareStatus.textContent = 'Link copied.';
    } catch {
      ui.shareStatus.textContent = 'The address bar now holds the link.';
    }
  });
  window.addEventListener('hashchange', loadFragment);
  // The skip link moves focus itself: followed, it would put `#urls` in place of the
  // fragment that holds the state, so that a reload or a copied address lost it.
  document.querySelector('.skip').addEventListener('click', (event) => {
    event.preventDefault();
    ui.urls.focus();
  });
}

async function main() {
  // Until the engine has loaded (a first visit fetches its WebAssembly), the page shows
  // the example it will check and says that it is loading, rather than standing blank.
  if (!location.hash) applyState(EXAMPLE);
  ui.empty.textContent = 'Loading the engine…';
  // Imported here, not above, so that a glue that fails to load is reported below like
  // a module that fails to compile, instead of leaving a page that silently does nothing.
  const engine = await import('/pkg/robots_web.js');
  await engine.default();
  parse = engine.parse;
  setReasonPhrases(engine.reason_phrases());
  wire();
  if (!(await loadFragment())) {
    applyState(EXAMPLE);
    update();
  }
  performance.mark('robots-ready');
  document.body.dataset.ready = 'true';
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
  }
}

main().catch((err) => {
  document.body.dataset.ready = 'failed';
  ui.empty.textContent = `The engine did not load: ${err.message ?? err}`;
});
