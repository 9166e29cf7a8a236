/**
 * The SvgCheckResult API shape: of a stored logo (GET /bimi) and of a conversion (POST /bimi/svg-convert).
 */
import { checkBimiSvg, convertToTinyPs, type BimiSvgCheck } from '../../shared/email-auth/bimiSvg.ts';

/** SvgIssue as the API shows it. */
interface SvgIssueView {
  code: string;
  message: string;
  severity: 'error' | 'warning';
}

/** A check of a stored file: every issue is an error; the file itself comes along so a client can preview the logo it hosts (as an image). */
export function presentSvgCheck(
  check: BimiSvgCheck,
  svgContent: string | null = null,
): Record<string, unknown> {
  return {
    valid: check.valid,
    profile: 'tiny-ps',
    svg_content: svgContent,
    size_bytes: check.size_bytes,
    issues: check.issues.map((i): SvgIssueView => ({ code: i.code, message: i.message, severity: 'error' })),
  };
}

/**
 * Converts `svg` to SVG Tiny PS and reports on both files: the submitted file's issues are warnings when
 * the conversion fixed them and errors when they remain (or when it could not be converted at all); issues
 * only the converted file has are errors. valid is the verdict on the converted file.
 */
export function convertSvg(svg: string): Record<string, unknown> {
  const input = checkBimiSvg(svg);
  const conversion = convertToTinyPs(svg);
  const converted = conversion.svg === null ? null : conversion.check;
  const remaining = new Set((converted ?? input).issues.map((i) => i.code));
  const issues: SvgIssueView[] = input.issues.map((i) => ({
    code: i.code,
    message: i.message,
    severity: converted && !remaining.has(i.code) ? 'warning' : 'error',
  }));
  for (const i of converted?.issues ?? []) {
    if (!input.issues.some((x) => x.code === i.code)) {
      issues.push({ code: i.code, message: i.message, severity: 'error' });
    }
  }
  return {
    valid: converted?.valid ?? false,
    profile: 'tiny-ps',
    svg_content: conversion.svg,
    size_bytes: converted?.size_bytes ?? null,
    input_valid: input.valid,
    changes: conversion.changes,
    issues,
  };
}
