import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Decimation,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
  DoughnutController,
  ArcElement,
  type ChartConfiguration,
} from 'chart.js';
import 'chartjs-adapter-date-fns';

// Only what the screens draw is registered: a smaller bundle and a faster start.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Decimation,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
  DoughnutController,
  ArcElement,
);

/** The theme's colours, read from the CSS variables (so charts follow light and dark). */
export function themeColors() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return {
    text: v('--text'),
    muted: v('--muted'),
    border: v('--border'),
    accent: v('--accent'),
    good: v('--good'),
    warn: v('--warn'),
    bad: v('--bad'),
    info: v('--info'),
  };
}

/** One series of a daily bar chart: its legend word, its colour and a value per day (YYYY-MM-DD). */
export interface DailySeries {
  label: string;
  color: string;
  days: readonly { date: string; value: number | null | undefined }[];
}

/**
 * Bars per day, stacked (mail volume by DMARC result or disposition, TLS sessions): a time axis of days, the
 * theme's colours, no animation, data already parsed (fast with long windows).
 */
export function dailyStackedBars(
  c: ReturnType<typeof themeColors>,
  series: readonly DailySeries[],
): ChartConfiguration<'bar', { x: number; y: number }[]> {
  return {
    type: 'bar',
    data: {
      datasets: series.map((s) => ({
        label: s.label,
        data: s.days.map((d) => ({ x: Date.parse(`${d.date}T00:00:00Z`), y: d.value ?? 0 })),
        backgroundColor: s.color,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: false,
      normalized: true,
      scales: {
        x: {
          type: 'time',
          time: { unit: 'day' },
          stacked: true,
          ticks: { color: c.muted, maxTicksLimit: 10 },
          grid: { display: false },
        },
        y: { stacked: true, ticks: { color: c.muted }, grid: { color: c.border } },
      },
      plugins: { legend: { labels: { color: c.text, boxWidth: 12 } } },
    },
  };
}

export { Chart };
