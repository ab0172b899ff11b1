import type { TopicPriority, TopicStatus } from '@trasa/domain';
import { scripted } from '../../scripted';

/**
 * Labels of the open-issue screens that spec 2 describes but does not word (headings, field labels,
 * buttons, filters). The spec's own texts come from @trasa/domain (TOPICS, CLUSTERS); the screen
 * titles from ../../shell/screenTitles, the shared buttons from ../../texts (UI).
 */
export const TOPIC_LABELS = scripted({
  newTopic: 'Нова тема',
  cluster: 'Кластер',
  description: 'Опис',
  priority: 'Приоритет',
  status: 'Статус',
  deadline: 'Рок',
  responsibleGroup: 'Одговорна група',
  createdAt: 'Отворена',
  updatedAt: 'Последња промена',
  topicData: 'Подаци о теми',

  filterAll: 'Све',
  filterStatus: 'Статус',
  filterPriority: 'Приоритет',

  comments: 'Коментари',
  noComments: 'Тема још нема коментара.',
  commentAuthor: 'Аутор',
  commentDate: 'Датум',
  answeringGroup: 'Група одговорна за одговор',
  newComment: 'Нови коментар',
  commentText: 'Коментар',
  handOver: 'Предај групи',
  noHandOver: 'Без предаје (одговара иста група)',
  sendComment: 'Пошаљи коментар',
  onlyResponsible: (group: string) => `Само одговорна група може да коментарише. Тренутно одговорна група: ${group}`,

  closeTopic: 'Затвори тему',
  closeConfirm: 'Затворити тему?',
  closeNote: 'Затворена тема се више не може мењати ни коментарисати.',
  groupsOfCluster: 'Нуде се групе које виде кластер и могу да одговоре.',
} as const);

export const PRIORITY_LABELS: Record<TopicPriority, string> = scripted({
  nizak: 'Низак',
  srednji: 'Средњи',
  visok: 'Висок',
});

export const STATUS_LABELS: Record<TopicStatus, string> = scripted({
  otvoren: 'Отворена',
  zatvoren: 'Затворена',
});

/** The list filters (spec 2 §2): all, open, closed. */
export const STATUS_FILTER_LABELS: Record<TopicStatus, string> = scripted({
  otvoren: 'Отворене',
  zatvoren: 'Затворене',
});
