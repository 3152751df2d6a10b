"""Who may do what through the API: anyone reads; only staff write."""

from rest_framework.permissions import SAFE_METHODS, BasePermission


class StaffWritesOthersRead(BasePermission):
    message = "only staff can change league data"

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)
