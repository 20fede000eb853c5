import type { CreatedPosition } from '../../domain.ts';

export interface Task {
  id: number;
  number: string;
  ticketId: number;
  deptId: number;
  staffId: number;
  title: string;
  description: string;
  dueDate: string | null;
  closed: string | null;
  created: string;
  updated: string;
}
export interface TaskListQuery {
  from: string | undefined;
  to: string | undefined;
  /** 0: any ticket. */
  ticketId: number;
  after: CreatedPosition | undefined;
  limit: number;
}
export interface NewTask {
  ticketId: number;
  deptId: number;
  staffId: number;
  title: string;
  description: string;
}
