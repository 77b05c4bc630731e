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

// Why a verdict no rule decided came out so, by its reason: the engine's presentation
// layer gives the words (`reason_phrases()`), so the table says what `robots check` says.
let whyNoRule = {};
export function setReasonPhrases(json) {
  whyNoRule = JSON.parse(json);
}

// The AI usage preferences beside a verdict: the Content-Usage rule's categories
// (draft-ietf-aipref-attach-05 §3) and the group's Content-Signal, each with its line.
export function preferencesHtml(v) {
  const pairs = (object) => Object.entries(object).map(([k, value]) => `${k}=${value}`).join(', ');
  const parts = [];
  if (v.content_usage) {
    const stated = pairs(v.content_usage) || 'nothing stated';
    parts.push(`<span class="pref usage">Content-Usage <code>${code(stated)}</code> ${lineButton(v.content_usage_line)}</span>`);
  }
  if (v.content_signal) {
    const stated = pairs(v.content_signal) || 'nothing stated';
    parts.push(`<span class="pref signal">Content-Signal <code>${code(stated)}</code> ${lineButton(v.content_signal_line)}</span>`);
  }
  return parts.length ? parts.join(' ') : '<span class="muted">–</span>';
}

// Rows of the verdicts table; `selected` is the index of the explained row, or -1. With
// several agents (`several`), each row names its agent in a last column.
export function verdictRows(verdicts, selected, several = false) {
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
      return `<tr data-index="${i}" data-verdict="${verdict}" data-line="${v.line ?? 0}" data-agent="${escapeHtml(v.agent ?? '')}"${i === selected ? ' class="selected" aria-current="true"' : ''}>
<td class="verdict">${verdictBadge(v)}</td>
<td class="url"><button type="button" class="row-link" data-index="${i}">${code(v.url)}</button></td>
<td class="line">${v.line ? lineButton(v.line) : '<span class="muted">–</span>'}</td>
<td class="rule">${rule}</td>
<td class="prefs">${preferencesHtml(v)}</td>${several ? `<td class="agent">${code(v.agent)}</td>` : ''}</tr>`;
    })
    .join('');
}

// The explanation panel for one verdict (the JSON of RobotsFile.explain), with the
// preferences of its row (`v`, a verdict of RobotsFile.check) when it has any.
export function explanationHtml(e, v = {}) {
  const prefs = v.content_usage || v.content_signal
    ? `<dt>Content preferences</dt><dd>${preferencesHtml(v)}</dd>`
    : '';
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
<dt>Groups</dt><dd>${prose(sentence(e.selection_text))}${e.set_aside_text ? ` ${prose(sentence(e.set_aside_text))}` : ''}</dd>
<dt>Matching rules</dt><dd>${matches}</dd>
${e.embargo_allow_text ? `<dt>Embargo-Allow</dt><dd>${prose(sentence(e.embargo_allow_text))}</dd>` : ''}
<dt>Verdict</dt><dd>${escapeHtml(sentence(e.reason_text))}</dd>
${prefs}
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

// What the file tells the crawlers beyond verdicts: its sitemaps and host, and each
// agent's Crawl-delay (`delays`: [{agent, seconds}]).
export function factsHtml(sitemaps, host, delays) {
  const list = sitemaps.length
    ? `<ul class="sitemaps">${sitemaps.map((s) => `<li><code>${code(s)}</code></li>`).join('')}</ul>`
    : '<span class="muted">none</span>';
  const delay = delays.length
    ? delays
        .map((d) => `<code>${code(d.agent)}</code>: ${d.seconds == null ? '<span class="muted">none</span>' : `${d.seconds} s`}`)
        .join('; ')
    : '<span class="muted">–</span>';
  return `<dt>Sitemaps</dt><dd>${list}</dd>
<dt>Host</dt><dd>${host ? `<code>${code(host)}</code>` : '<span class="muted">none</span>'}</dd>
<dt>Crawl-delay</dt><dd>${delay}</dd>`;
}
