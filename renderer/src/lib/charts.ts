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

type Colors = ReturnType<typeof themeColors>;

/**
 * What every time chart shares: no animation and data already parsed (fast with long windows), a time axis
 * of days in the theme's muted colour, the legend in the text colour.
 */
function timeChartOptions(c: Colors, x: { stacked: boolean; maxTicks: number; grid: boolean }) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    parsing: false as const,
    normalized: true as const,
    x: {
      type: 'time' as const,
      time: { unit: 'day' as const },
      stacked: x.stacked,
      ticks: { color: c.muted, maxTicksLimit: x.maxTicks },
      grid: x.grid ? { color: c.border } : { display: false },
    },
    legend: { labels: { color: c.text, boxWidth: 12 } },
  };
}

/**
 * Bars per day, stacked (mail volume by DMARC result or disposition, TLS sessions): a time axis of days, the
 * theme's colours.
 */
export function dailyStackedBars(
  c: Colors,
  series: readonly DailySeries[],
): ChartConfiguration<'bar', { x: number; y: number }[]> {
  const { x, legend, ...base } = timeChartOptions(c, { stacked: true, maxTicks: 10, grid: false });
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
      ...base,
      scales: { x, y: { stacked: true, ticks: { color: c.muted }, grid: { color: c.border } } },
      plugins: { legend },
    },
  };
}

/** One series of a stepped line: its legend word, its colour, whether dashed, a value at each time (ISO). */
export interface StepSeries {
  label: string;
  color: string;
  /** Dashed, without points: values worked out rather than measured. */
  derived?: boolean;
  points: readonly { at: string; value: number }[];
}

/**
 * Values that hold until the next reading (a score from 0 to 10): stepped lines on a time axis, thinned to
 * about 300 points per line when the window is long (the shape kept: LTTB).
 */
export function steppedLines(
  c: Colors,
  series: readonly StepSeries[],
  range: { min: number; max: number; step: number },
): ChartConfiguration<'line', { x: number; y: number }[]> {
  const { x, legend, ...base } = timeChartOptions(c, { stacked: false, maxTicks: 8, grid: true });
  return {
    type: 'line',
    data: {
      datasets: series.map((s) => ({
        label: s.label,
        data: s.points.map((p) => ({ x: Date.parse(p.at), y: p.value })),
        borderColor: s.color,
        backgroundColor: s.color,
        ...(s.derived ? { borderDash: [4, 3], pointRadius: 0 } : { pointRadius: 2 }),
        stepped: true,
      })),
    },
    options: {
      ...base,
      scales: {
        x,
        y: {
          min: range.min,
          max: range.max,
          ticks: { color: c.muted, stepSize: range.step },
          grid: { color: c.border },
        },
      },
      plugins: { legend, decimation: { enabled: true, algorithm: 'lttb', samples: 300 } },
    },
  };
}

export { Chart };
