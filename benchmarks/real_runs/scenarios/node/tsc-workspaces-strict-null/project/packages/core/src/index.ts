export interface User {
  id: string;
  email: string;
  displayName?: string;
  teamId: string | null;
}

export class UserDirectory {
  private readonly byId = new Map<string, User>();

  add(user: User): void {
    this.byId.set(user.id, user);
  }

  find(id: string): User | undefined {
    return this.byId.get(id);
  }

  all(): User[] {
    return [...this.byId.values()];
  }
}
