// What the engine answered, as HTML: the verdicts table, the explanation of one
// verdict, and the lint list. Every line number is a button that highlights its line.

import { escapeHtml, printable } from './editor.js';

const code = (text) => escapeHtml(printable(text));

// Engine messages quote code in backticks (a file's text among them, controls and all);
// show those parts as code.
const prose = (text) => code(text).replace(/`([^`]+)`/g, '<code>$1</code>');
// The engine's sentences start in lower case (they also appear mid-line on the command
// line); the panel shows them as sentences.
const sentence = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

const lineButton = (line) =>
  `<button type="button" class="line-link" data-line="${line}" aria-label="Highlight line ${line}">${line}</button>`;

function verdictBadge(v) {
  if (!v.allowed) return '<span class="badge disallowed">disallowed</span>';
  if (v.embargo_days != null) {
    return `<span class="badge embargo">embargo ${v.embargo_days} days</span>`;
  }
  return '<span class="badge allowed">allowed</span>';
}

const directive = { allow: 'Allow', disallow: 'Disallow', 'embargo-allow': 'Embargo-Allow' };

const whyNoRule = {
  'robots-txt': '/robots.txt is always allowed',
  'no-group': 'no group for this crawler',
  'no-match': 'no rule matches',
};

// Rows of the verdicts table; `selected` is the index of the explained row, or -1.
export function verdictRows(verdicts, selected) {
  return verdicts
    .map((v, i) => {
      // Google's empty Disallow names its line but disallows nothing: say so, as the
      // command line does, rather than show an allowed URL beside a bare Disallow.
      const emptyDisallow = v.reason === 'empty-disallow';
      const rule = emptyDisallow
        ? '<code>Disallow:</code> <span class="muted">empty: disallows nothing</span>'
        : v.rule
          ? `<code>${escapeHtml(directive[v.rule])}: ${code(v.pattern)}</code>`
          : `<span class="muted">${whyNoRule[v.reason] ?? ''}</span>`;
      const verdict = v.allowed ? (v.embargo_days != null ? 'embargo' : 'allowed') : 'disallowed';
      return `<tr data-index="${i}" data-verdict="${verdict}" data-line="${v.line ?? 0}"${i === selected ? ' class="selected" aria-current="true"' : ''}>
<td class="verdict">${verdictBadge(v)}</td>
<td class="url"><button type="button" class="row-link" data-index="${i}">${code(v.url)}</button></td>
<td class="line">${v.line ? lineButton(v.line) : '<span class="muted">–</span>'}</td>
<td class="rule">${rule}</td></tr>`;
    })
    .join('');
}

// The explanation panel for one verdict (the JSON of RobotsFile.explain).
export function explanationHtml(e) {
  const matches = e.matches.length
    ? `<ul class="matches">${e.matches
        .map(
          (m) => `<li class="${m.decides ? 'decides' : ''}${m.counted ? '' : ' ignored'}">
${lineButton(m.line)} <code>${escapeHtml(m.directive)}: ${code(m.pattern)}</code>
<span class="muted">length ${m.length}</span>${m.decides ? ' <strong>decides</strong>' : ''}${m.counted ? '' : ' <span class="muted">(ignored)</span>'}</li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No rule matches the path.</p>';
  return `<h3 class="subhead">Why ${verdictBadge(e.verdict)}</h3>
<dl>
<dt>URL</dt><dd><code>${code(e.verdict.url)}</code></dd>
<dt>Path as matched</dt><dd><code>${code(e.path)}</code></dd>
<dt>Groups</dt><dd>${prose(sentence(e.selection_text))}</dd>
<dt>Matching rules</dt><dd>${matches}</dd>
${e.embargo_allow_text ? `<dt>Embargo-Allow</dt><dd>${prose(sentence(e.embargo_allow_text))}</dd>` : ''}
<dt>Verdict</dt><dd>${escapeHtml(sentence(e.reason_text))}</dd>
</dl>`;
}

// The lint list: one item per finding, most serious first, in line order.
export function lintItems(diagnostics) {
  const rank = { error: 0, warning: 1, info: 2 };
  return [...diagnostics]
    .sort((a, b) => rank[a.severity] - rank[b.severity] || a.line - b.line)
    .map(
      (d) => `<li class="sev-${d.severity}">${lineButton(d.line)}
<span class="sev">${d.severity}</span> <code class="code">${escapeHtml(d.code)}</code>
<span class="msg">${prose(d.message)}</span>${d.suggestion ? `<span class="help">${prose(d.suggestion)}</span>` : ''}</li>`,
    )
    .join('');
}
