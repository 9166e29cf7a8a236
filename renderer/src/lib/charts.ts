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

export { Chart };
