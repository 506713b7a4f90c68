//! A job queue that retries failed jobs.

#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub id: u32,
    pub attempts: u8,
}

#[derive(Default)]
pub struct Queue {
    jobs: Vec<Job>,
}

impl Queue {
    pub fn push(&mut self, id: u32) {
        self.jobs.push(Job { id, attempts: 0 });
    }

    /// Requeue every job that has attempts left, once.
    pub fn requeue_failed(&mut self, max: u8) -> usize {
        let mut n = 0;
        for job in self.jobs.iter() {
            if job.attempts < max {
                self.jobs.push(Job { id: job.id, attempts: job.attempts + 1 });
                n += 1;
            }
        }
        n
    }

    pub fn first_mut(&mut self) -> Option<&mut Job> {
        self.jobs.first_mut()
    }

    pub fn len(&self) -> usize {
        self.jobs.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requeues() {
        let mut q = Queue::default();
        q.push(1);
        q.push(2);
        assert_eq!(q.requeue_failed(3), 2);
        assert_eq!(q.len(), 4);
    }
}
