/**
 * The dashboard's chart arithmetic (src/dashboard/chart.js, a browser module without DOM work at load): axis
 * scales and the filling of days without calls.
 */
import { describe, expect, it } from 'vitest';

interface ChartModule {
  niceScale(max: number, ticks?: number): { max: number; step: number };
  fillDays(byDay: { day: string; calls: number; credits: number }[], fromIso: string, toIso: string, metric: 'calls' | 'credits'): { day: string; value: number }[];
}

// A plain ES module of the dashboard, so no type declarations: imported through a variable path.
const modulePath = '../../src/dashboard/chart.js';
const chart = (await import(modulePath)) as ChartModule;

describe('dashboard chart arithmetic', () => {
  it('rounds the axis up to whole, readable steps', () => {
    expect(chart.niceScale(0)).toEqual({ max: 4, step: 1 });
    expect(chart.niceScale(1)).toEqual({ max: 1, step: 1 });
    expect(chart.niceScale(30)).toEqual({ max: 30, step: 10 });
    expect(chart.niceScale(905)).toEqual({ max: 1000, step: 250 });
    for (const max of [3, 7, 13, 99, 101, 4321, 1e6 + 1]) {
      const s = chart.niceScale(max);
      expect(s.max, String(max)).toBeGreaterThanOrEqual(max);
      expect(Number.isInteger(s.step) && s.step >= 1, String(max)).toBe(true);
      expect(s.max % s.step, String(max)).toBe(0);
      expect(s.max / s.step, String(max)).toBeLessThanOrEqual(5);
    }
  });

  it('gives every UTC day of the period a value, zero where no call was made', () => {
    const days = chart.fillDays(
      [
        { day: '2026-11-19', calls: 2, credits: 5 },
        { day: '2026-11-21', calls: 1, credits: 1 },
      ],
      '2026-11-18T12:00:00.000Z',
      '2026-11-21T12:00:00.000Z',
      'credits',
    );
    expect(days).toEqual([
      { day: '2026-11-18', value: 0 },
      { day: '2026-11-19', value: 5 },
      { day: '2026-11-20', value: 0 },
      { day: '2026-11-21', value: 1 },
    ]);
  });
});
