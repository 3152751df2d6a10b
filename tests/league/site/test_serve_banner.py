"""What `manage.py serve` (`make run`) prints last, once web, worker and beat run:
the URLs and the demo logins."""

from league.site.management.commands.serve import serve_banner

URL = "http://127.0.0.1:8000/"
RULE = "=" * 72


def test_the_banner_names_the_url_and_both_demo_logins_and_ends_the_output():
    banner = serve_banner(
        url=URL, admin_password="adm-secret", demo_password="demo-secret", worker_ready=True, verbose=False
    )
    assert banner.splitlines() == [
        RULE,
        "Pecking Order is running at http://127.0.0.1:8000/  (Ctrl-C stops everything)",
        "",
        "  Admin:       user 'admin', password 'adm-secret'  http://127.0.0.1:8000/admin/",
        "  Demo player: user 'demo', password 'demo-secret'  http://127.0.0.1:8000/accounts/login/",
        "",
        "  API docs: http://127.0.0.1:8000/api/docs/   Health: http://127.0.0.1:8000/health/",
        "  Quiet logs (warnings only); make run VERBOSE=1 (serve --verbose) shows every request and task.",
        RULE,
    ]


def test_verbose_drops_the_quiet_hint_and_a_silent_worker_is_said():
    banner = serve_banner(url=URL, admin_password=None, demo_password=None, worker_ready=False, verbose=True)
    assert "  Admin:       no demo admin yet (make demo creates one)" in banner.splitlines()
    assert "Demo player" not in banner and "Quiet logs" not in banner
    assert "  The worker has not answered yet: bot matches and ratings wait for it (see /health/)." in banner
