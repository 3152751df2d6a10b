"""What the apps' admins share."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that only their app's services write: the admin lists and shows them, and changes nothing."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
