/** The report's own styles (uPlot's stylesheet is inlined beside them). */
export const reportStylesheet = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1d2330; background: #fff; }
h1 { font-size: 22px; margin: 0 0 12px; }
h2 { font-size: 17px; margin: 28px 0 4px; border-bottom: 1px solid #dde2ea; padding-bottom: 4px; }
p.caption { color: #4a5364; margin: 4px 0 10px; max-width: 1100px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { padding: 3px 10px; border: 1px solid #dde2ea; text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3f5f9; text-align: left; }
table.summary th { width: 200px; }
table.summary td { text-align: left; }
.notes { color: #4a5364; font-size: 13px; }
.warning { background: #fff4e0; border-left: 4px solid #e69500; padding: 6px 10px; max-width: 1100px; }
.grid { display: flex; flex-wrap: wrap; gap: 18px; }
figure { margin: 0; }
figcaption { font-size: 13px; color: #4a5364; max-width: 560px; }
`;
