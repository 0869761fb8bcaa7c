/** Text for SVG markup: the five XML special characters escaped. */
export function svgText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
