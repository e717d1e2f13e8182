// The Tessera console page: talks to /api/v1 with the token kept in this tab's sessionStorage
// (sent in the Authorization header, never in a cookie). Everything shown is built with DOM
// calls and textContent, so names from the file system cannot inject markup.
'use strict';

const TOKEN_KEY = 'tessera.token';
const REFRESH_MS = 2000;
const state = { tab: 'overview', filesPath: '/', filesNext: null, snapshotOffset: 0, timer: null };

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c)));
  return e;
}

function bytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + ' ' + units[i];
}

function time(ms) { return ms ? new Date(ms).toLocaleString() : ''; }

// One message line. Its kind says who may clear it: a periodic refresh clears only the
// failure it reported itself, so the outcome of an action stays until the user acts again.
function showMessage(text, kind) {
  const e = $('error');
  e.textContent = text || '';
  e.hidden = !text;
  e.dataset.kind = text ? kind : '';
}

function showError(message) { showMessage(message, 'error'); }

function alertInfo(text) { showMessage(text, 'info'); }


async function api(method, path, body) {
  const headers = { 'Authorization': 'Bearer ' + sessionStorage.getItem(TOKEN_KEY) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
  if (r.status === 401) { signOut('Signed out: ' + (data && data.error)); throw new Error(data && data.error); }
  if (!r.ok) throw new Error((data && data.error) || (r.status + ' ' + r.statusText));
  return data;
}

function fill(tableId, rows) {
  const body = $(tableId).tBodies[0];
  body.replaceChildren(...rows);
}

// ---- sign in ----

async function signIn(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  try {
    const me = await api('GET', '/api/v1/whoami');
    $('who').textContent = me.name + ' (' + me.role + ')';
    $('login').hidden = true;
    $('app').hidden = false;
    $('tabs').hidden = false;
    $('sign-out').hidden = false;
    showError('');
    show(state.tab);
  } catch (e) {
    sessionStorage.removeItem(TOKEN_KEY);
    showError('Sign-in failed: ' + e.message);
  }
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  clearInterval(state.timer);
  $('login').hidden = false;
  $('app').hidden = true;
  $('tabs').hidden = true;
  $('sign-out').hidden = true;
  $('who').textContent = '';
  showError(message || '');
}

// ---- tabs ----

const loaders = {
  overview: loadOverview, servers: loadServers, files: () => loadFiles(false),
  snapshots: loadSnapshots, recovery: loadRecovery, qos: loadQos, events: loadEvents, audit: loadAudit,
};
// tabs that refresh themselves (the file browser keeps its place until asked)
const live = new Set(['overview', 'servers', 'snapshots', 'recovery', 'qos', 'events', 'audit']);

function show(tab) {
  state.tab = tab;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.tab === tab);
  for (const s of document.querySelectorAll('.tab')) s.hidden = s.id !== 'tab-' + tab;
  clearInterval(state.timer);
  showError('');
  refresh();
  state.timer = setInterval(() => { if (live.has(state.tab)) refresh(); }, REFRESH_MS);
}

async function refresh() {
  try {
    await loaders[state.tab]();
    $('app').dataset.refreshes = Number($('app').dataset.refreshes || 0) + 1;
    if ($('error').dataset.kind === 'refresh') showMessage('', '');
  } catch (e) {
    showMessage(e.message, 'refresh');
  }
}

// ---- overview ----

async function loadOverview() {
  const [c, servers, history] = await Promise.all([
    api('GET', '/api/v1/cluster'), api('GET', '/api/v1/servers'), api('GET', '/api/v1/history')]);
  const h = $('health');
  h.textContent = c.health;
  h.className = 'health ' + c.health;
  $('problems').replaceChildren(...c.problems.map(p => el('li', {}, p)));
  const full = c.capacityBytes ? Math.min(100, 100 * (c.capacityBytes - c.freeBytes) / c.capacityBytes) : 0;
  // servers that share a filesystem (a local cluster's share one disk) count it once
  const disks = c.filesystems === 1 ? 'one filesystem' : c.filesystems + ' filesystems';
  const shared = c.filesystems < c.dataServers ? ', shared by ' + c.dataServers + ' data servers' : '';
  $('capacity').textContent = bytes(c.usedBytes) + ' in shards; ' + bytes(c.freeBytes) + ' free of '
    + bytes(c.capacityBytes) + ' on ' + disks + shared + ' (' + full.toFixed(0) + '% full)';
  $('capacity-used').style.width = full + '%';
  $('meta-summary').textContent = c.metaReplicas + (c.metaReplicas === 1 ? ' replica' : ' replicas')
    + ', leader ' + (c.leader || 'none') + '; epoch ' + c.epoch;
  fill('overview-servers', servers.data.map(d => el('tr', { 'data-server': d.id },
    el('td', {}, d.id), el('td', { class: 'state state-' + d.state }, d.state.toUpperCase()),
    el('td', { class: 'num' }, bytes(d.usedBytes)), el('td', { class: 'num' }, bytes(d.freeBytes)),
    el('td', { class: 'num' }, bytes(d.clientBytesPerSecond) + '/s, ' + d.clientRequestsPerSecond + ' req/s'))));
  chart($('chart-bytes'), history.map(s => [s.timeMs, s.bytesPerSecond]), v => bytes(v) + '/s');
  chart($('chart-ops'), history.map(s => [s.timeMs, s.requestsPerSecond]), v => Math.round(v) + '/s');
}

function chart(svg, points, label) {
  const W = 600, H = 160, L = 70, B = 20;
  const ns = 'http://www.w3.org/2000/svg';
  const node = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const max = Math.max(1, ...points.map(p => p[1]));
  const t0 = points.length ? points[0][0] : 0;
  const t1 = points.length ? points[points.length - 1][0] : 1;
  const x = t => L + (W - L - 5) * (t1 === t0 ? 1 : (t - t0) / (t1 - t0));
  const y = v => (H - B) - (H - B - 10) * v / max;
  const parts = [
    node('line', { x1: L, y1: y(0), x2: W, y2: y(0) }), node('line', { x1: L, y1: y(max), x2: W, y2: y(max) }),
    node('text', { x: 0, y: y(max) + 4 }, label(max)), node('text', { x: 0, y: y(0) }, label(0)),
    node('polyline', { points: points.map(p => x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1)).join(' ') }),
  ];
  if (points.length) parts.push(node('text', { x: L, y: H - 4 }, new Date(t0).toLocaleTimeString()),
    node('text', { x: W - 60, y: H - 4 }, new Date(t1).toLocaleTimeString()));
  svg.replaceChildren(...parts);
}

// ---- servers ----

async function loadServers() {
  const s = await api('GET', '/api/v1/servers');
  fill('meta-replicas', s.meta.map(r => el('tr', {}, el('td', {}, r.id), el('td', {}, r.address),
    el('td', {}, r.leader ? 'leader' : 'follower'),
    el('td', {}, r.lastContactMillisAgo < 0 ? 'unknown' : r.lastContactMillisAgo + ' ms ago'))));
  fill('data-servers', s.data.map(d => el('tr', { 'data-server': d.id },
    el('td', {}, d.id), el('td', {}, d.address), el('td', { class: 'state state-' + d.state }, d.state.toUpperCase()),
    el('td', { class: 'num' }, bytes(d.capacityBytes)), el('td', { class: 'num' }, bytes(d.usedBytes)),
    el('td', { class: 'num' }, bytes(d.freeBytes)), el('td', { class: 'num' }, bytes(d.clientBytesPerSecond)),
    el('td', { class: 'num' }, d.clientRequestsPerSecond), el('td', { class: 'num' }, d.filesToRebuild),
    el('td', {}, d.lastHeartbeatMillisAgo < 0 ? 'unknown' : d.lastHeartbeatMillisAgo + ' ms ago'))));
}

// ---- files ----

async function loadFiles(more) {
  const path = state.filesPath;
  let url = '/api/v1/files?limit=200&path=' + encodeURIComponent(path);
  if (more && state.filesNext) url += '&after=' + encodeURIComponent(state.filesNext);
  const l = await api('GET', url);
  $('files-path').value = path;
  const rows = (l.self.directory ? l.entries : [l.self]).map(f => el('tr', { 'data-path': f.path },
    el('td', {}, f.directory ? el('a', { class: 'dir', onclick: () => openPath(f.path) }, f.name + '/') : f.name),
    el('td', { class: 'num' }, f.directory ? '' : bytes(f.size)), el('td', {}, f.mode),
    el('td', {}, f.uid + ':' + f.gid), el('td', {}, time(f.modifiedMs)),
    el('td', {}, f.layout ? f.layout.description : ''),
    el('td', {}, f.layout ? f.layout.servers.join(' ') + (f.staleServers.length ? ' (stale: ' + f.staleServers.join(' ') + ')' : '') : '')));
  if (more) $('files').tBodies[0].append(...rows); else fill('files', rows);
  state.filesNext = l.next;
  $('files-more').hidden = !l.next;
  const locks = l.self.directory ? [] : l.locks;
  $('file-locks-box').hidden = !locks.length;
  fill('file-locks', locks.map(h => el('tr', {}, el('td', {}, h.client),
    el('td', {}, h.mode.startsWith('intent') ? '' : '[' + h.offset + ', ' + (h.length ? h.offset + h.length : 'end') + ')'),
    el('td', {}, h.mode + (h.calledBack ? ', called back' : '')),
    el('td', { class: 'num' }, (h.leaseLeftMs / 1000).toFixed(1) + ' s'))));
}

function openPath(path) {
  state.filesPath = path || '/';
  state.filesNext = null;
  refresh();
}

// ---- snapshots ----

async function loadSnapshots() {
  const page = await api('GET', '/api/v1/snapshots?limit=100&offset=' + state.snapshotOffset);
  fill('snapshots', page.snapshots.map(s => el('tr', { 'data-snapshot': s.name },
    el('td', {}, s.name), el('td', { class: 'num' }, s.epoch), el('td', {}, time(Date.parse(s.created))),
    el('td', { class: 'num' }, s.tookMillis + ' ms'), el('td', {}, s.missingServers.join(' ')),
    el('td', {},
      el('button', { class: 'restore', onclick: () => confirmRestore(s.name) }, 'Restore…'), ' ',
      el('button', { class: 'delete', onclick: () => deleteSnapshot(s.name) }, 'Delete')))));
  const pages = $('snapshot-pages');
  pages.replaceChildren();
  if (page.total > 100) {
    pages.append('Snapshots ' + (page.offset + 1) + '-' + (page.offset + page.snapshots.length) + ' of ' + page.total + ' ');
    if (page.offset > 0) pages.append(el('button', { onclick: () => { state.snapshotOffset = Math.max(0, page.offset - 100); refresh(); } }, 'Previous'));
    if (page.offset + 100 < page.total) pages.append(el('button', { onclick: () => { state.snapshotOffset = page.offset + 100; refresh(); } }, 'Next'));
  }
}

async function createSnapshot(name) {
  try {
    await api('POST', '/api/v1/snapshots', { name });
    $('snapshot-name').value = '';
    await refresh();
  } catch (e) { showError('Create failed: ' + e.message); }
}

function confirmRestore(name) {
  const d = $('confirm');
  $('confirm-title').textContent = 'Restore from snapshot ' + name;
  $('confirm-text').textContent = 'The path becomes what it was in the snapshot: files that differ are copied back'
    + ' and entries the snapshot did not have are removed. Give "/" to roll the whole file system back.';
  $('confirm-path').value = state.filesPath === '/' ? '/' : state.filesPath;
  d.returnValue = '';
  d.onclose = async () => {
    if (d.returnValue !== 'ok') return;
    const path = $('confirm-path').value;
    try {
      const r = await api('POST', '/api/v1/snapshots/' + encodeURIComponent(name) + '/restore', path === '/' ? { all: true } : { path });
      showError('');
      alertInfo('Restored ' + path + ' from ' + name + ': ' + r.filesCopied + ' files copied, '
        + r.filesUnchanged + ' unchanged, ' + r.entriesRemoved + ' removed');
    } catch (e) { showError('Restore failed: ' + e.message); }
  };
  d.showModal();
}

async function deleteSnapshot(name) {
  try {
    await api('DELETE', '/api/v1/snapshots/' + encodeURIComponent(name));
    await refresh();
  } catch (e) { showError('Delete failed: ' + e.message); }
}

// ---- recovery, QoS, events, audit ----

async function loadRecovery() {
  const r = await api('GET', '/api/v1/recovery');
  $('recovery-summary').textContent = (r.rebuilds.length ? '' : 'Nothing to rebuild. ')
    + 'Rate limit: ' + (r.rateLimitBytesPerSecond ? bytes(r.rateLimitBytesPerSecond) + '/s' : 'none')
    + '; files without parity: ' + r.filesWithoutParity;
  fill('rebuilds', r.rebuilds.map(b => el('tr', {}, el('td', {}, b.server), el('td', {}, b.draining ? 'drain' : 'rebuild'),
    el('td', { class: 'num' }, b.filesLeft), el('td', { class: 'num' }, bytes(b.bytesLeft)),
    el('td', { class: 'num' }, b.filesDone + ' files, ' + bytes(b.bytesDone)),
    el('td', { class: 'num' }, bytes(b.bytesPerSecond) + '/s'),
    el('td', { class: 'num' }, b.bytesPerSecond > 0 ? Math.ceil(b.bytesLeft / b.bytesPerSecond) + ' s' : ''),
    el('td', {}, b.lastError))));
}

async function loadQos() {
  const q = await api('GET', '/api/v1/qos');
  const achieved = new Map(((q.achieved && q.achieved.apps) || []).map(a => [a.settings.app, a]));
  const apps = new Map(q.settings.map(s => [s.app, s]));
  for (const a of achieved.values()) if (!apps.has(a.settings.app)) apps.set(a.settings.app, a.settings);
  fill('qos', [...apps.values()].map(s => {
    const a = achieved.get(s.app);
    return el('tr', {}, el('td', {}, s.app), el('td', { class: 'num' }, s.weight),
      el('td', { class: 'num' }, s.reservationBytesPerSec ? bytes(s.reservationBytesPerSec) + '/s' : '-'),
      el('td', { class: 'num' }, s.limitBytesPerSec ? bytes(s.limitBytesPerSec) + '/s' : '-'),
      el('td', { class: 'num' }, a ? (100 * a.targetShare).toFixed(1) + '%' : ''),
      el('td', { class: 'num' }, a ? (100 * a.achievedShare).toFixed(1) + '%' : ''),
      el('td', { class: 'num' }, a ? bytes(a.bytesPerSecond) + '/s' : ''),
      el('td', { class: 'num' }, a ? a.queueDelayMillis.toFixed(1) + ' ms' : ''),
      // weights share out only what waits: an application that never waited got what it asked for
      el('td', {}, !a || !a.requests ? '' : a.waitingFraction < 0.05
        ? 'not contended: served at once (asked ' + (100 * a.askedShare).toFixed(0) + '%)'
        : 'contended: waited ' + (100 * a.waitingFraction).toFixed(0) + '% of the time'));
  }));
  $('qos-note').textContent = q.achieved ? 'Shares over the last ' + q.achieved.windowMillis + ' ms from '
    + q.achieved.proxies.length + ' proxies.' : 'No QoS proxies run in this cluster (tessera local --qos starts them).';
}

async function loadEvents() {
  const events = await api('GET', '/api/v1/events?limit=200');
  fill('events', events.map(e => el('tr', {}, el('td', {}, time(e.timeMs)), el('td', {}, e.kind),
    el('td', {}, e.subject), el('td', {}, e.message))));
}

async function loadAudit() {
  const entries = await api('GET', '/api/v1/audit?limit=200');
  fill('audit', entries.map(a => el('tr', {}, el('td', { class: 'num' }, a.seq), el('td', {}, time(Date.parse(a.time))),
    el('td', {}, a.who), el('td', {}, a.from), el('td', {}, a.action), el('td', {}, a.target), el('td', {}, a.result))));
}

// ---- wiring ----

document.addEventListener('DOMContentLoaded', () => {
  $('login-form').addEventListener('submit', ev => { ev.preventDefault(); signIn($('token-input').value.trim()); });
  $('sign-out').addEventListener('click', () => signOut());
  for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => show(b.dataset.tab));
  $('files-form').addEventListener('submit', ev => { ev.preventDefault(); openPath($('files-path').value.trim()); });
  $('files-up').addEventListener('click', () => {
    const p = state.filesPath.replace(/\/+$/, '');
    openPath(p.substring(0, p.lastIndexOf('/')) || '/');
  });
  $('files-more').addEventListener('click', () => loadFiles(true).catch(e => showError(e.message)));
  $('snapshot-form').addEventListener('submit', ev => { ev.preventDefault(); createSnapshot($('snapshot-name').value.trim()); });
  const saved = sessionStorage.getItem(TOKEN_KEY);
  if (saved) signIn(saved);
});
