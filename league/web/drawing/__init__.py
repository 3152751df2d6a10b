"""Drawing code beside the templates: geometry of what pages draw as SVG."""
