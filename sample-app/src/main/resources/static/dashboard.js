// The dashboard: plain browser JavaScript, no build step. Reads the app's JSON endpoints and the actuator.
'use strict';

const numbers = new Intl.NumberFormat('en-US');
let chart = null;

async function json(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(url + ' answered ' + response.status);
  }
  return response.json();
}

// The timeline: /analytics/series answers columns ({times, events, totalValues}), which is uPlot's own data
// layout ([xs, ys...]), so nothing is reshaped here.
async function loadTimeline() {
  const bucket = document.getElementById('bucket').value;
  const element = document.getElementById('timeline');
  const error = document.getElementById('timeline-error');
  try {
    const series = await json('/analytics/series?bucket=' + bucket + '&limit=1440');
    const data = [series.times, series.events];
    if (chart) {
      chart.destroy();
    }
    element.dataset.points = '';
    chart = new uPlot({
      width: Math.min(1200, document.body.clientWidth - 20),
      height: 320,
      scales: { x: { time: true } },
      series: [
        {},
        { label: 'events', stroke: '#1f77b4', fill: 'rgba(31, 119, 180, 0.12)', width: 1.5 },
      ],
      axes: [{}, { label: 'events', size: 70 }],
      hooks: {
        // runs after the canvas is painted: publish how many points were plotted
        draw: [(u) => { element.dataset.points = String(u.data[0].length); }],
      },
    }, data, element);
    error.hidden = true;
  } catch (e) {
    error.textContent = 'Cannot load the timeline: ' + e.message;
    error.hidden = false;
  }
}

async function loadTopUsers() {
  const table = document.getElementById('top-users');
  const body = table.querySelector('tbody');
  const users = await json('/analytics/top-users?limit=10');
  body.replaceChildren(...users.map((user) => {
    const row = document.createElement('tr');
    [String(user.userId), numbers.format(user.events), numbers.format(user.totalValue),
      user.lastSeen.replace('T', ' ').replace('Z', '')].forEach((text) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.appendChild(cell);
    });
    return row;
  }));
  table.dataset.rows = String(users.length);
}

async function loadSummary() {
  const summary = await json('/analytics/summary');
  document.getElementById('total-events').textContent = numbers.format(summary.totalEvents);
  document.getElementById('total-users').textContent = numbers.format(summary.distinctUsers);
  document.getElementById('server').textContent = summary.serverDisplayName + ' ' + summary.serverVersion;
}

function measurement(metric, statistic) {
  const found = metric.measurements.find((m) => m.statistic === statistic);
  return found ? found.value : 0;
}

// Live numbers from the actuator: the pool of the /actuator/clickhouse endpoint, and the client's timer
// and rows-read summary from /actuator/metrics.
async function loadMetrics() {
  const clickhouse = await json('/actuator/clickhouse');
  const client = Object.values(clickhouse.clients)[0];
  const pool = client.pool;
  document.getElementById('pool').textContent = pool.active + ' / ' + pool.idle + ' / ' + pool.max;
  const timer = await json('/actuator/metrics/clickhouse.tcp.client.operation');
  const count = measurement(timer, 'COUNT');
  const total = measurement(timer, 'TOTAL_TIME');
  document.getElementById('calls').textContent = numbers.format(count)
    + (count > 0 ? ' (' + (1000 * total / count).toFixed(1) + ' ms)' : '');
  const rows = await json('/actuator/metrics/clickhouse.tcp.client.rows.read');
  document.getElementById('rows-read').textContent = numbers.format(measurement(rows, 'TOTAL'));
}

function report(e) {
  console.error(e);
}

document.getElementById('bucket').addEventListener('change', () => loadTimeline());
loadTimeline();
loadTopUsers().catch(report);
loadSummary().catch(report);
loadMetrics().catch(report);
setInterval(() => loadMetrics().catch(report), 5000);
