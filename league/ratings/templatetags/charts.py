"""History charts in templates: `{% load charts %}`, then `{% history_chart chart "rating-history" "Rating
after each match" %}` for a `league.ratings.charts.Chart`.

The SVG is written here in Python rather than in a template: a chart of 20 lines has some 240 readable points,
each with its tooltip and its row in the table, which Django's template engine renders about ten times slower.

What it draws: grid lines and rating labels (left), date labels (below), a line per series with its points;
each point carries a <title> (the browser's tooltip) and a label shown on hover or tap (site.css); a legend
naming each line; and every point as a row of a table in a <details> element, for screen readers.
"""

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from league.ratings.charts import Chart

register = template.Library()


def _x_anchor(index: int, count: int) -> str:
    if count > 1 and index == 0:
        return "start"
    if count > 1 and index == count - 1:
        return "end"
    return "middle"


@register.simple_tag
def history_chart(chart: Chart, chart_id: str, label: str) -> SafeString:
    cid, name = escape(chart_id), escape(label)
    out = [
        f'<figure class="history-chart" id="{cid}">',
        f'<svg class="chart" viewBox="0 0 {chart.width} {chart.height}" role="img" '
        f'aria-labelledby="{cid}-label">',
        f'<title id="{cid}-label">{name}</title><g class="grid">',
    ]
    out += [f'<line x1="{chart.left}" x2="{chart.right}" y1="{y}" y2="{y}"/>' for _, y in chart.y_ticks]
    out.append(
        f'</g><g class="axis"><line x1="{chart.left}" x2="{chart.right}" y1="{chart.baseline}" '
        f'y2="{chart.baseline}"/>'
        f'<line x1="{chart.left}" x2="{chart.left}" y1="{chart.top}" y2="{chart.baseline}"/>'
    )
    out += [
        f'<text class="y-tick" x="{chart.left - 5}" y="{y}" text-anchor="end" dominant-baseline="middle">'
        f"{escape(text)}</text>"
        for text, y in chart.y_ticks
    ]
    count = len(chart.x_ticks)
    out += [
        f'<text class="x-tick" x="{x}" y="{chart.baseline + 18}" '
        f'text-anchor="{_x_anchor(i, count)}">{escape(text)}</text>'
        for i, (text, x) in enumerate(chart.x_ticks)
    ]
    out.append("</g>")
    rows = []
    for line in chart.lines:
        line_label = escape(line.label)
        out.append(f'<g class="series series-{line.index}"><polyline points="{line.points}"/>')
        for dot in line.dots:
            title = escape(dot.title)
            out.append(
                f'<g class="pt"><title>{title}</title><circle cx="{dot.x}" cy="{dot.y}" r="3"/>'
                f'<text class="tip" x="{dot.x}" y="{dot.tip_y}" '
                f'text-anchor="{dot.tip_anchor}">{escape(dot.tip)}</text></g>'
            )
            when = f"{dot.when:%Y-%m-%d %H:%M}" if dot.when is not None else "–"
            rows.append(f'<tr><td>{line_label}</td><td>{when}</td><td class="num">{dot.value:.1f}</td></tr>')
        out.append("</g>")
    out.append('</svg><figcaption class="legend">')
    out += [
        f'<span class="series-{line.index}"><i></i>{escape(line.label)} (now {line.last:.1f})</span>'
        for line in chart.lines
    ]
    out.append(
        '</figcaption><details class="chart-data"><summary>The points as a table</summary>'
        f'<div class="table-wrap" tabindex="0" role="region" aria-label="{name}: the points"><table>'
        '<thead><tr><th>Line</th><th>Date</th><th class="num">Rating</th></tr></thead><tbody>'
    )
    out += rows
    out.append("</tbody></table></div></details></figure>")
    return mark_safe("".join(out))
