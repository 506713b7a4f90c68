import { UserDirectory, type User } from "@acme/core";

export interface ProfileView {
  email: string;
  name: string;
  team: string;
}

export function profile(dir: UserDirectory, id: string): ProfileView {
  const user = dir.find(id);
  return {
    email: user.email,
    name: user.displayName.trim(),
    team: teamLabel(user),
  };
}

function teamLabel(user: User): string {
  return user.teamId.toUpperCase();
}
