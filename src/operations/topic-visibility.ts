import type { Config } from '../config.ts';
import type { Topic } from '../data/topics/topic.ts';

/**
 * Whether a topic look-up may answer with this topic: not when the deployment serves public
 * topics only and it is private, nor when the help desk no longer offers it (osTicket: disabled
 * or archived) unless DESKGATE_INACTIVE_TOPICS asks for those too.
 */
export function isTopicVisible(
  topic: Topic,
  config: Pick<Config, 'publicTopicsOnly' | 'inactiveTopics'>,
): boolean {
  if (config.publicTopicsOnly && !topic.isPublic) return false;
  return topic.isActive || config.inactiveTopics;
}
