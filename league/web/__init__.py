"""The pages: one module (or package) per URL namespace, each with its views and its `urlpatterns`
(`docs/layout.md`). A view parses the request, calls one service or page selector, and renders."""
